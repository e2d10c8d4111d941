import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("ObservableObject")
struct ObservableObjectTests {
    final class Model: ObservableObject, @unchecked Sendable {
        @Published var name = ""
        @Published var count = 0
        var notPublished = 0
    }

    class Base: ObservableObject {
        @Published var base = 0
    }

    final class Derived: Base {
        @Published var derived = 0
    }

    final class Custom: ObservableObject {
        let objectWillChange = PassthroughSubject<String, Never>()
    }

    final class Plain: ObservableObject {
        var value = 0
    }

    @Test func sendsBeforeEachPublishedChange() {
        let model = Model()
        let seen = Log<String>()
        let cancellable = model.objectWillChange.sink { seen.append("will change from \(model.name)/\(model.count)") }
        model.name = "alice"
        model.count = 1
        model.notPublished = 5
        #expect(seen.items == ["will change from /0", "will change from alice/0"])
        cancellable.cancel()
    }

    @Test func theSamePublisherEveryTime() {
        let model = Model()
        #expect(model.objectWillChange === model.objectWillChange)
        let other = Model()
        #expect(model.objectWillChange !== other.objectWillChange)
    }

    @Test func superclassPropertiesCountToo() {
        let derived = Derived()
        let changes = Log<Void>()
        let cancellable = derived.objectWillChange.sink { changes.append(()) }
        derived.base = 1
        derived.derived = 2
        #expect(changes.items.count == 2)
        cancellable.cancel()
    }

    @Test func theProjectedPublisherStillSendsTheNewValue() {
        let model = Model()
        let order = Log<String>()
        let willChange = model.objectWillChange.sink { order.append("objectWillChange") }
        let names = model.$name.dropFirst().sink { order.append("name \($0)") }
        model.name = "bob"
        #expect(order.items == ["objectWillChange", "name bob"])
        willChange.cancel()
        names.cancel()
    }

    @Test func aCustomPublisherAndAnObjectWithoutPublishedProperties() {
        let custom = Custom()
        let received = Log<String>()
        let cancellable = custom.objectWillChange.sink { received.append($0) }
        custom.objectWillChange.send("reload")
        #expect(received.items == ["reload"])
        cancellable.cancel()

        let plain = Plain()
        let changes = Log<Void>()
        let never = plain.objectWillChange.sink { changes.append(()) }
        plain.value = 1
        plain.objectWillChange.send()
        #expect(changes.items.isEmpty)
        never.cancel()
    }

    @Test func concurrentFirstRequestsGetOnePublisher() {
        let model = Model()
        let publishers = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let publisher = model.objectWillChange
            publishers.withLock { $0.append(ObjectIdentifier(publisher)) }
        }
        #expect(Set(publishers.withLock { $0 }).count == 1)
    }

    @Test func aSubclassAnnouncesEveryChangeBeforeItHappens() {
        let derived = Derived()
        let seen = Log<String>()
        let cancellable = derived.objectWillChange.sink { seen.append("\(derived.base)/\(derived.derived)") }
        derived.base = 1
        derived.derived = 2
        derived.base += 1
        #expect(seen.items == ["0/0", "1/0", "1/2"])
        #expect(derived.base == 2 && derived.derived == 2)
        cancellable.cancel()
    }

    /// Calls `@Published`'s enclosing-instance subscript directly, as the compiler does.
    final class Direct: ObservableObject {
        @Published var name = ""

        var nameThroughSubscript: String {
            get { Published[_enclosingInstance: self, wrapped: \.name, storage: \._name] }
            set { Published[_enclosingInstance: self, wrapped: \.name, storage: \._name] = newValue }
        }
    }

    @Test func theEnclosingInstanceSubscriptReadsAndWritesTheProperty() {
        let model = Direct()
        let changes = Log<String>()
        let cancellable = model.objectWillChange.sink { changes.append(model.name) }
        model.nameThroughSubscript = "bob"
        #expect(model.name == "bob" && model.nameThroughSubscript == "bob")
        #expect(changes.items == [""])
        cancellable.cancel()
    }
}
