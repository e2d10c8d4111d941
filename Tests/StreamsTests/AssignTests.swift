import Streams
import StreamsTesting
import Testing

@Suite("assign, @Published, subscribe(subject)")
struct AssignTests {
    final class Label: @unchecked Sendable {
        var text = ""
    }

    final class SignUpModel: @unchecked Sendable {
        @Published var userName = ""
        @Published var isValid = false
        var seenInSink: [String] = []

        init() {
            $userName.map { $0.count >= 4 }.assign(to: &$isValid)
        }
    }

    @Test func assignWritesEveryValue() {
        let label = Label()
        let subject = PassthroughSubject<String, Never>()
        let cancellable = subject.assign(to: \.text, on: label)
        subject.send("a")
        subject.send("b")
        #expect(label.text == "b")
        cancellable.cancel()
        subject.send("c")
        #expect(label.text == "b")
    }

    @Test func assignHoldsTheObjectUntilCancel() {
        weak var weakLabel: Label?
        let subject = PassthroughSubject<String, Never>()
        let cancellable: AnyCancellable
        do {
            let label = Label()
            weakLabel = label
            cancellable = subject.assign(to: \.text, on: label)
        }
        #expect(weakLabel != nil)
        cancellable.cancel()
        #expect(weakLabel == nil)
    }

    @Test func assignReleasesTheObjectOnCompletion() {
        weak var weakLabel: Label?
        let subject = PassthroughSubject<String, Never>()
        let assign: Subscribers.Assign<Label, String>
        do {
            let label = Label()
            weakLabel = label
            assign = Subscribers.Assign(object: label, keyPath: \.text)
            subject.subscribe(assign)
        }
        subject.send(completion: .finished)
        #expect(weakLabel == nil)
        #expect(assign.object == nil)
        #expect(String(describing: assign) == "Assign Label.")
    }

    @Test func publishedSendsCurrentThenChangesBeforeStoring() {
        let model = SignUpModel()
        var seen: [(new: String, stored: String)] = []
        let cancellable = model.$userName.sink { [unowned model] value in
            seen.append((value, model.userName))
        }
        model.userName = "bob"
        #expect(seen.map(\.new) == ["", "bob"])
        // willSet order: while the sink runs the property still holds the old value.
        #expect(seen.map(\.stored) == ["", ""])
        #expect(model.userName == "bob")
        cancellable.cancel()
    }

    @Test func assignToPublishedFollowsAndDiesWithTheObject() {
        weak var weakModel: SignUpModel?
        do {
            let model = SignUpModel()
            weakModel = model
            #expect(model.isValid == false)
            model.userName = "alice"
            #expect(model.isValid == true)
            model.userName = "al"
            #expect(model.isValid == false)
        }
        #expect(weakModel == nil)
    }

    @Test func publishedAlsoWorksInAStruct() {
        struct Settings {
            @Published var volume = 1
        }
        let settings = Settings()
        let values = Log<Int>()
        let cancellable = settings.$volume.sink { values.append($0) }
        settings.volume = 5
        #expect(values.items == [1, 5])
        #expect(settings.volume == 5)
        cancellable.cancel()
    }

    @Test func subscribeSubjectForwardsValuesAndCompletion() {
        let relay = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        let forwarding = [1, 2].publisher.subscribe(relay)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        forwarding.cancel()
    }

    @Test func subscribeSubjectCancelStopsForwarding() {
        let relay = CurrentValueSubject<Int, Never>(0)
        let source = PassthroughSubject<Int, Never>()
        let forwarding = source.subscribe(relay)
        // A CurrentValueSubject asks its upstream for values at once, as in Combine.
        source.send(1)
        #expect(relay.value == 1)
        let listener = relay.sink { _ in }
        forwarding.cancel()
        source.send(2)
        #expect(relay.value == 1)
        listener.cancel()
    }

    @Test func subscribeSubjectCancelledFromInsideAForwardedValue() {
        weak var weakRelay: PassthroughSubject<Int, Never>?
        let source = PassthroughSubject<Int, Never>()
        let values = Log<Int>()
        var forwarding: AnyCancellable?
        let listener: AnyCancellable
        do {
            let relay = PassthroughSubject<Int, Never>()
            weakRelay = relay
            listener = relay.sink { value in
                values.append(value)
                forwarding?.cancel()
            }
            forwarding = source.subscribe(relay)
        }
        source.send(1)
        source.send(2)
        #expect(values.items == [1])
        // The forwarding subscriber let go of the subject once the value had been delivered;
        // the listener's subscription keeps it until cancelled, as in Combine.
        listener.cancel()
        #expect(weakRelay == nil)
    }
}
