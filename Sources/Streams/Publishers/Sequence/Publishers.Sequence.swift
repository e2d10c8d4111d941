import Synchronization

extension Sequence {
    /// A publisher that sends this sequence's elements, as many as are asked for, then finishes.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink { print($0) }   // 1, 2, 3
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that sends the elements of a sequence, honouring demand, then finishes.
    ///
    /// An empty sequence sends ``Subscriptions/empty`` and `.finished` at once. The completion
    /// follows the last element without waiting for more demand.
    ///
    /// ```swift
    /// let numbers = Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3])
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's elements.
        public typealias Output = Elements.Element

        /// The sequence whose elements are sent.
        public let sequence: Elements

        /// Makes a publisher of `sequence`'s elements.
        ///
        /// ```swift
        /// let letters = Publishers.Sequence<String, Never>(sequence: "abc")
        /// ```
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Sends the subscription; elements follow the subscriber's requests.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            if let first = iterator.next() {
                subscriber.receive(
                    subscription: SequenceSubscription(
                        downstream: subscriber, sequence: sequence, iterator: iterator, next: first,
                        completion: .finished))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}
