import Streams
import StreamsTesting
import Testing

@Suite("handleEvents, print")
struct HandleEventsTests {
    @Test func hooksRunInOrderBeforeForwarding() {
        let log = Log<String>()
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(1), demandPerValue: .max(1), onValue: { log.append("downstream \($0)") })
        [1, 2].publisher
            .handleEvents(
                receiveSubscription: { _ in log.append("subscription") },
                receiveOutput: { log.append("output \($0)") },
                receiveCompletion: { _ in log.append("completion") },
                receiveCancel: { log.append("cancel") },
                receiveRequest: { log.append("request \($0)") }
            )
            .subscribe(subscriber)
        #expect(
            log.items == [
                "subscription", "request max(1)",
                "output 1", "downstream 1", "request max(1)",
                "output 2", "downstream 2", "request max(1)",
                "completion",
            ])
        #expect(String(describing: subscriber.subscription!) == "HandleEvents")
    }

    @Test func cancelHookRunsOnceAndHooksAreReleased() {
        weak var weakToken: Tracked?
        let cancels = Log<Void>()
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let token = Tracked()
            weakToken = token
            PassthroughSubject<Int, Never>()
                .handleEvents(receiveOutput: { _ in _ = token }, receiveCancel: { cancels.append(()) })
                .subscribe(subscriber)
        }
        subscriber.cancel()
        subscriber.cancel()
        #expect(cancels.items.count == 1)
        #expect(weakToken == nil)
    }

    @Test func printWritesCombinesLines() {
        final class Lines: TextOutputStream, @unchecked Sendable {
            var text = ""
            func write(_ string: String) { text += string }
        }
        let lines = Lines()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        let subject = PassthroughSubject<Int, TestError>()
        subject.print("numbers", to: StreamRef(lines)).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(
            lines.text == """
                numbers: receive subscription: (PassthroughSubject)
                numbers: request max: (1)
                numbers: receive value: (1)
                numbers: request max: (1) (synchronous)
                numbers: receive error: (oops)

                """)
        #expect(String(describing: subscriber.subscription!) == "Print")
    }

    @Test func printWithoutAStreamWritesToStandardOutput() async throws {
        final class Lines: TextOutputStream, @unchecked Sendable {
            var text = ""
            func write(_ string: String) { text += string }
        }
        let lines = Lines()
        _ = Just(1).print("tag", to: StreamRef(lines)).sink { _ in }
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                _ = Just(1).print("tag").sink { _ in }
            })
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == lines.text)
        #expect(lines.text.hasPrefix("tag: receive subscription: (Just)\n"))
    }

    @Test func printWithoutPrefixAndCancel() {
        final class Lines: TextOutputStream, @unchecked Sendable {
            var text = ""
            func write(_ string: String) { text += string }
        }
        let lines = Lines()
        let cancellable = Just(1).print(to: StreamRef(lines)).sink { _ in }
        cancellable.cancel()
        #expect(
            lines.text == """
                receive subscription: (Just)
                request unlimited
                receive value: (1)
                request max: (0) (synchronous)
                receive finished

                """)
    }
}

/// A text stream that writes through to a shared object, so the test can read what was printed.
struct StreamRef<Target: TextOutputStream & AnyObject>: TextOutputStream {
    let target: Target
    init(_ target: Target) { self.target = target }
    mutating func write(_ string: String) {
        var target = self.target
        target.write(string)
    }
}
