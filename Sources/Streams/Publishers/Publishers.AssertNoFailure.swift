extension Publisher {
    /// Passes values and `.finished` on, and stops the program with a fatal error if upstream
    /// fails: for streams that must not fail, where a failure is a bug.
    ///
    /// ```swift
    /// let config = loadBundledConfiguration().assertNoFailure("bundled configuration")
    /// ```
    @inlinable
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// A publisher that turns an upstream failure into a fatal error.
    ///
    /// ```swift
    /// let config = Publishers.AssertNoFailure(upstream: load(), prefix: "config", file: #file, line: #line)
    /// ```
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Never fails: a failure stops the program.
        public typealias Failure = Never

        /// The publisher that must not fail.
        public let upstream: Upstream
        /// Put before the error in the fatal error's message.
        public let prefix: String
        /// The file named in the fatal error.
        public let file: StaticString
        /// The line named in the fatal error.
        public let line: UInt

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let config = Publishers.AssertNoFailure(upstream: load(), prefix: "", file: #file, line: #line)
        /// ```
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches `subscriber`.
        ///
        /// As in Combine, the downstream receives the upstream's own subscription, and every
        /// failure traps, also one that follows a `.finished`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(
                subscriber: AssertNoFailureSubscriber<Upstream.Failure, S>(
                    downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

/// AssertNoFailure's subscriber: stateless and pass-through.
@usableFromInline
struct AssertNoFailureSubscriber<Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == Never {
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let prefix: String
    @usableFromInline
    let file: StaticString
    @usableFromInline
    let line: UInt
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
        self.downstream = downstream
        self.prefix = prefix
        self.file = file
        self.line = line
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            fatalError(prefix.isEmpty ? "\(error)" : "\(prefix): \(error)", file: file, line: line)
        }
    }

    @usableFromInline
    var description: String { "AssertNoFailure" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["file": file, "line": line, "prefix": prefix]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
