import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("assign(to:on:ownership:)")
struct AssignOwnershipTests {
    private final class Target {
        var text = ""
        var other = ""
        var third = ""
    }

    @Test(arguments: [ObjectOwnership.strong, .weak, .unowned])
    func assignsEveryValue(_ ownership: ObjectOwnership) {
        let target = Target()
        let subject = PassthroughSubject<String, Never>()
        let cancellable = subject.assign(to: \.text, on: target, ownership: ownership)
        subject.send("a")
        subject.send("b")
        #expect(target.text == "b")
        cancellable.cancel()
        subject.send("c")
        #expect(target.text == "b")
    }

    @Test func strongKeepsTheObjectAlive() {
        weak var released: Target?
        let subject = PassthroughSubject<String, Never>()
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            cancellable = subject.assign(to: \.text, on: target, ownership: .strong)
            released = target
        }
        #expect(released != nil && cancellable != nil)
        cancellable = nil
        #expect(released == nil)
    }

    @Test func weakLetsTheObjectGoAndDropsLaterValues() {
        weak var released: Target?
        let subject = PassthroughSubject<String, Never>()
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            cancellable = subject.assign(to: \.text, on: target, ownership: .weak)
            released = target
        }
        #expect(released == nil)
        subject.send("after")
        #expect(cancellable != nil)
    }

    @Test func unownedDoesNotKeepTheObjectAlive() {
        weak var released: Target?
        let subject = PassthroughSubject<String, Never>()
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            cancellable = subject.assign(to: \.text, on: target, ownership: .unowned)
            released = target
        }
        #expect(released == nil)
        cancellable?.cancel()
    }

    @Test func weakBreaksTheCycleOfAnObjectAssigningToItself() {
        final class Model {
            let source = CurrentValueSubject<Int, Never>(0)
            var label = ""
            var cancellable: AnyCancellable?
            init() { cancellable = source.map(String.init).assign(to: \.label, on: self, ownership: .weak) }
        }
        weak var released: Model?
        do {
            let model = Model()
            model.source.send(3)
            #expect(model.label == "3")
            released = model
        }
        #expect(released == nil)
    }

    @Test(arguments: [ObjectOwnership.strong, .weak, .unowned])
    func twoAndThreeTargets(_ ownership: ObjectOwnership) {
        let first = Target()
        let second = Target()
        let subject = PassthroughSubject<String, Never>()
        let two = subject.assign(to: \.text, on: first, and: \.other, on: second, ownership: ownership)
        let three = subject.assign(
            to: \.third, on: first, and: \.third, on: second, and: \.other, on: first, ownership: ownership)
        subject.send("x")
        #expect([first.text, first.other, first.third, second.other, second.third] == ["x", "x", "x", "x", "x"])
        two.cancel()
        three.cancel()
    }

    @Test func theDefaultIsStrong() {
        weak var released: Target?
        let subject = PassthroughSubject<String, Never>()
        var cancellable: AnyCancellable?
        do {
            let first = Target()
            let second = Target()
            cancellable = subject.assign(to: \.text, on: first, and: \.text, on: second)
            released = first
        }
        #expect(released != nil && cancellable != nil)
        cancellable = nil
        #expect(released == nil)
    }

    /// A value whose property writes through a `nonmutating set`: its key path is a
    /// `ReferenceWritableKeyPath`, though the root is not a class.
    private struct Handle {
        let box: Target
        var text: String {
            get { box.text }
            nonmutating set { box.text = newValue }
        }
    }

    @Test func twoAndThreeTargetsOfAnyRootType() {
        let first = Target()
        let second = Target()
        let subject = PassthroughSubject<String, Never>()
        let two = subject.assign(to: \.text, on: Handle(box: first), and: \.other, on: second)
        let three = subject.assign(
            to: \.third, on: first, and: \.text, on: Handle(box: second), and: \.text, on: Handle(box: second))
        subject.send("y")
        #expect([first.text, first.third, second.other, second.text] == ["y", "y", "y", "y"])
        two.cancel()
        three.cancel()
        subject.send("z")
        #expect(first.text == "y")
    }
}
