extension Publisher {
    /// Passes on the values of this publisher and `other` as they arrive.
    ///
    /// It finishes when both have finished; the first failure cancels the other.
    ///
    /// ```swift
    /// let taps = buttonA.merge(with: buttonB)
    /// ```
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Passes on the values of this publisher, `b` and `c` as they arrive.
    ///
    /// ```swift
    /// let events = keyboard.merge(with: mouse, touch)
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }
}

extension Publishers {
    /// A publisher that passes on the values of two publishers as they arrive.
    ///
    /// ```swift
    /// let taps = Publishers.Merge(buttonA, buttonB)
    /// ```
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The values of both publishers.
        public typealias Output = A.Output
        /// The failure of both publishers.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B

        /// Makes a publisher that merges `a` and `b`.
        ///
        /// ```swift
        /// let taps = Publishers.Merge(buttonA, buttonB)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`: the subscription first, then both upstreams.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b) = (self.a, self.b)
            MergeSubscription(downstream: subscriber, count: 2).start { merge in
                merge.attach(a, at: 0)
                merge.attach(b, at: 1)
            }
        }

        /// Merges a third publisher in.
        ///
        /// ```swift
        /// let all = Publishers.Merge(a, b).merge(with: c)
        /// ```
        @inlinable
        public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
        where P.Output == Output, P.Failure == Failure {
            Publishers.Merge3(a, b, other)
        }
    }

    /// A publisher that passes on the values of three publishers as they arrive.
    ///
    /// ```swift
    /// let events = Publishers.Merge3(keyboard, mouse, touch)
    /// ```
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure {
        /// The values of the publishers.
        public typealias Output = A.Output
        /// The failure of the publishers.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C

        /// Makes a publisher that merges `a`, `b` and `c`.
        ///
        /// ```swift
        /// let events = Publishers.Merge3(keyboard, mouse, touch)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b, c) = (self.a, self.b, self.c)
            MergeSubscription(downstream: subscriber, count: 3).start { merge in
                merge.attach(a, at: 0)
                merge.attach(b, at: 1)
                merge.attach(c, at: 2)
            }
        }
    }

    /// A publisher that passes on the values of any number of publishers of one type.
    ///
    /// ```swift
    /// let all = Publishers.MergeMany(requests)
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' values.
        public typealias Output = Upstream.Output
        /// The upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The publishers merged.
        public let publishers: [Upstream]

        /// Makes a publisher that merges `upstream`.
        ///
        /// ```swift
        /// let all = Publishers.MergeMany(first, second, third)
        /// ```
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Makes a publisher that merges the publishers of `upstream`; none finishes at once.
        ///
        /// ```swift
        /// let all = Publishers.MergeMany(urls.map(fetch))
        /// ```
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let publishers = self.publishers
            MergeSubscription(downstream: subscriber, count: publishers.count).start { merge in
                for (index, publisher) in publishers.enumerated() {
                    merge.attach(publisher, at: index)
                }
            }
        }

        /// Merges one more publisher of the same type in.
        ///
        /// ```swift
        /// let more = all.merge(with: another)
        /// ```
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
