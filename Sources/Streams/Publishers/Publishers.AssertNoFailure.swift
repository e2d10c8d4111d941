extension Publisher {
    /// Passes values and `.finished` on, and stops the program with a fatal error if upstream
    /// fails: for streams that must not fail, where a failure is a bug.
    ///
    /// ```swift
    /// let config = loadBundledConfiguration().assertNoFailure("bundled configuration: ")
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
    /// let config = Publishers.AssertNoFailure(upstream: load(), prefix: "config: ", file: #file, line: #line)
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
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let (prefix, file, line) = (self.prefix, self.file, self.line)
            upstream.receive(
                subscriber: StageSubscription<Output, Upstream.Failure, S>(
                    name: "AssertNoFailure", downstream: subscriber,
                    mapFailure: { error in fatalError("\(prefix)\(error)", file: file, line: line) },
                    step: { .emit($0) }))
        }
    }
}
