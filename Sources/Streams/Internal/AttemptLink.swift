/// A subscription that subscribes to its upstream once per attempt (`retry`, the selective
/// retry, `retry(on:)`) and tells attempts apart by a generation number, so that late events of
/// an abandoned attempt are ignored.
@usableFromInline
protocol AttemptParent<Input, Failure>: AnyObject {
    associatedtype Input
    associatedtype Failure: Error

    /// The attempt's subscription arrived.
    func receive(subscription: any Subscription, generation: Int)
    /// The attempt sent a value.
    func receive(_ input: Input, generation: Int) -> Subscribers.Demand
    /// The attempt completed.
    func receive(completion: Subscribers.Completion<Failure>, generation: Int)
}

/// Subscribes to one attempt on behalf of an ``AttemptParent``, stamping its events with the
/// attempt's generation.
@usableFromInline
struct AttemptLink<Parent: AttemptParent>: Subscriber, CustomStringConvertible {
    @usableFromInline
    let parent: Parent
    @usableFromInline
    let generation: Int
    @usableFromInline
    let name: String
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: Parent, generation: Int, name: String) {
        self.parent = parent
        self.generation = generation
        self.name = name
    }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.receive(subscription: subscription, generation: generation)
    }

    @inlinable
    func receive(_ input: Parent.Input) -> Subscribers.Demand {
        parent.receive(input, generation: generation)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Parent.Failure>) {
        parent.receive(completion: completion, generation: generation)
    }

    @usableFromInline
    var description: String { name }
}
