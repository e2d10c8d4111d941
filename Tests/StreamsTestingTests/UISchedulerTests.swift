import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("UIScheduler")
struct UISchedulerTests {
    @MainActor
    @Test func onTheMainQueueWorkRunsAtOnce() {
        let ran = Locked(false)
        UIScheduler.shared.schedule { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }

    @Test func offTheMainQueueWorkHopsToTheMainQueue() async {
        // Under `dispatchMain()` a pool thread drains the main queue: ask the queues, not threads.
        let mainKey = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainKey, value: 1)
        let background = DispatchQueue(label: "UISchedulerTests.background")
        let backgroundKey = DispatchSpecificKey<Int>()
        background.setSpecific(key: backgroundKey, value: 1)
        let (onMainQueue, onCallingQueue) = await withCheckedContinuation { continuation in
            background.async {
                UIScheduler.shared.schedule {
                    let onMain = DispatchQueue.getSpecific(key: mainKey) == 1
                    continuation.resume(returning: (onMain, DispatchQueue.getSpecific(key: backgroundKey) == 1))
                }
            }
        }
        #expect(onMainQueue)
        #expect(!onCallingQueue, "the work hopped instead of running on the calling queue")
    }

    @Test func itHasTheMainQueuesTimeSoTestSchedulersStandInForIt() {
        let ui: AnySchedulerOf<UIScheduler> = .shared
        let test = UIScheduler.test
        let immediate = UIScheduler.immediate
        let ran = Locked(0)
        test.schedule(after: test.now.advanced(by: .seconds(1))) { ran.withLock { $0 += 1 } }
        immediate.schedule { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
        test.advance(by: .seconds(1))
        #expect(ran.withLock { $0 } == 2)
        #expect(ui.minimumTolerance == DispatchQueue.main.minimumTolerance)
    }
}
