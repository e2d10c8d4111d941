extension Publisher {
    /// Sends `elements` after this publisher finishes.
    ///
    /// ```swift
    /// let withFooter = ["a", "b"].publisher.append("end")   // "a", "b", "end"
    /// ```
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Sends the elements of `elements` after this publisher finishes.
    ///
    /// ```swift
    /// let more = [1, 2].publisher.append(3...5)   // 1, 2, 3, 4, 5
    /// ```
    @inlinable
    public func append<S: Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Subscribes to `publisher` after this publisher finishes, and passes on its values too.
    ///
    /// The downstream keeps its one subscription; its outstanding demand carries over.
    ///
    /// ```swift
    /// let all = cached.append(fresh)
    /// ```
    @inlinable
    public func append<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<Self, P> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Sends `elements` before this publisher's values.
    ///
    /// ```swift
    /// let withHeader = ["b", "c"].publisher.prepend("a")   // "a", "b", "c"
    /// ```
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Sends the elements of `elements` before this publisher's values.
    ///
    /// ```swift
    /// let numbers = [3, 4].publisher.prepend(1...2)   // 1, 2, 3, 4
    /// ```
    @inlinable
    public func prepend<S: Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Passes on `publisher`'s values first, and subscribes to this publisher once it finishes.
    ///
    /// ```swift
    /// let all = fresh.prepend(cached)
    /// ```
    @inlinable
    public func prepend<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<P, Self> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publishers {
    /// A publisher that passes on all of one publisher's values, then all of another's.
    ///
    /// A failure of the prefix ends the stream; the suffix is subscribed only after the prefix
    /// finishes.
    ///
    /// ```swift
    /// let all = Publishers.Concatenate(prefix: cached, suffix: fresh)
    /// ```
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        /// The values of both publishers.
        public typealias Output = Suffix.Output
        /// The failure of both publishers.
        public typealias Failure = Suffix.Failure

        /// The publisher whose values come first.
        public let prefix: Prefix

        /// The publisher subscribed to once the prefix finishes.
        public let suffix: Suffix

        /// Makes a publisher of `prefix`'s values followed by `suffix`'s.
        ///
        /// ```swift
        /// let all = Publishers.Concatenate(prefix: cached, suffix: fresh)
        /// ```
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches `subscriber` to the prefix, then to the suffix.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            prefix.receive(
                subscriber: ConcatenatePrefixSubscriber(
                    parent: ConcatenateSubscription<Prefix, Suffix, S>(downstream: subscriber, suffix: suffix)))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
