extension Publisher {
    /// Passes on at most the first `maxLength` values, then cancels upstream and finishes.
    ///
    /// ```swift
    /// let firstTwo = [1, 2, 3].publisher.prefix(2)   // 1, 2
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "prefix requires a length of zero or more, got \(maxLength)")
        return output(in: 0..<maxLength)
    }

    /// Passes on only the value at `index` (counting from zero), then finishes. `index` must not
    /// be negative. `Int.max` is accepted (Combine traps on it): that position is never reached,
    /// so every value is dropped.
    ///
    /// ```swift
    /// let third = ["a", "b", "c"].publisher.output(at: 2)   // "c"
    /// ```
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        precondition(index >= 0, "output(at:) requires an index of zero or more, got \(index)")
        // Position Int.max is never reached; its one-element range would overflow.
        return Publishers.Output(upstream: self, range: index < .max ? index..<index + 1 : index..<index)
    }

    /// Passes on only the values whose position (counting from zero) lies in `range`, then
    /// finishes. Positions must not be negative.
    ///
    /// ```swift
    /// let middle = (0..<10).publisher.output(in: 3..<5)   // 3, 4
    /// ```
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        // A closed range is made half-open by the standard library, which traps without a word
        // on a negative upper bound: name the rule first.
        if let closed = range as? ClosedRange<Int> {
            precondition(closed.lowerBound >= 0, "output(in:) requires positions of zero or more, got \(closed)")
        }
        return Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}

extension Publishers {
    /// A publisher that passes on the values at a range of positions, then finishes.
    ///
    /// ```swift
    /// let page = Publishers.Output(upstream: rows, range: 20..<40)
    /// ```
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are selected.
        public let upstream: Upstream

        /// The positions, counting from zero, of the values to pass on.
        public let range: CountableRange<Int>

        /// Makes a publisher of `upstream`'s values at the positions in `range`.
        ///
        /// ```swift
        /// let page = Publishers.Output(upstream: rows, range: 20..<40)
        /// ```
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "output(in:) requires positions of zero or more, got \(range)")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches `subscriber`; positions count from this subscription's first value.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var position = 0
            let range = self.range
            upstream.receive(
                subscriber:
                    StageSubscription<Output, Failure, S>(
                        kind: .output, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            defer { position += 1 }
                            if position < range.lowerBound { return .drop }
                            if position >= range.upperBound { return .finish }
                            return position == range.upperBound - 1 ? .emitAndFinish(input) : .emit(input)
                        }))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}
