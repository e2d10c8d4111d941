import Streams
import StreamsTesting
import Testing

/// A subject that logs what it is sent, each subscription by its description.
private final class LoggingSubject: Subject, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    let log = Log<String>()
    private(set) var subscriptions: [any Subscription] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {}

    func send(_ value: Int) { log.append("value \(value)") }

    func send(completion: Subscribers.Completion<TestError>) { log.append("completion \(completion)") }

    func send(subscription: any Subscription) {
        subscriptions.append(subscription)
        log.append("subscription \(subscription)")
    }
}

/// `AnySubscriber(subject)` at the edges: it is the subscriber `subscribe(_ subject:)` attaches,
/// not a subscriber made from closures.
@Suite("AnySubscriber of a subject at the edges")
struct AnySubscriberEdgeTests {
    @Test func describesAndReflectsAsTheSubjectsSubscriber() {
        let erased = AnySubscriber(PassthroughSubject<Int, TestError>())
        #expect(erased.description == "Subject")
        #expect(erased.playgroundDescription as? String == "Subject")
        let mirror = Mirror(reflecting: erased)
        #expect(String(describing: mirror.subjectType) == "SubjectSubscriber<PassthroughSubject<Int, TestError>>")
        #expect(mirror.children.map(\.label) == ["subject"])
    }

    @Test func theSubjectGetsOneSubscriptionAndTheFirstCompletion() {
        let subject = LoggingSubject()
        let erased = AnySubscriber(subject)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        erased.receive(subscription: first)
        erased.receive(subscription: second)
        #expect(second.cancels == 1)
        #expect(erased.receive(1) == .none)
        #expect(erased.receive(2) == .none)
        erased.receive(completion: .finished)
        erased.receive(completion: .failure(.oops))
        #expect(erased.receive(3) == .none)
        #expect(subject.log.items == ["subscription Subject", "value 1", "value 2", "completion finished"])
        #expect(first.cancels == 0)
    }

    /// The subject is handed the subscriber standing for the upstream, not the upstream's own
    /// subscription; its requests and its cancel reach the upstream through it.
    @Test func theSubjectIsHandedTheSubscriberNotTheUpstreamsSubscription() throws {
        let subject = LoggingSubject()
        let upstream = PassthroughSubject<Int, TestError>()
        upstream.subscribe(AnySubscriber(subject))
        let handed = try #require(subject.subscriptions.first)
        handed.request(.max(1))
        upstream.send(5)
        upstream.send(6)
        handed.cancel()
        upstream.send(completion: .finished)
        #expect(subject.log.items == ["subscription Subject", "value 5"])
    }
}
