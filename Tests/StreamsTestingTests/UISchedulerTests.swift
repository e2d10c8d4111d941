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
        // Under `dispatchMain()` a pool thread drains the main queue: ask the queue, not the thread.
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        let scheduledCallReturned = Locked(false)
        let (ranOnMainQueue, ranAfterTheCallReturned) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                UIScheduler.shared.schedule {
                    continuation.resume(
                        returning: (DispatchQueue.getSpecific(key: key) == 1, scheduledCallReturned.withLock { $0 }))
                }
                scheduledCallReturned.withLock { $0 = true }
            }
        }
        #expect(ranOnMainQueue)
        #expect(ranAfterTheCallReturned, "the work waited for the main queue instead of running on the calling thread")
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
