extension Publisher {
    /// Prints a line for every event: subscription, request, value, completion and cancel, each
    /// starting with `prefix` (when not empty), to `stream` or to standard output.
    ///
    /// As in Combine, every event is logged whatever the state (a duplicate subscription, a
    /// request after a cancel, ...), and after each value the demand the downstream returned
    /// (`request max: (1) (synchronous)`).
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: ([1, 2])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: request max: (0) (synchronous)
    /// // numbers: receive value: (2)
    /// // numbers: request max: (0) (synchronous)
    /// // numbers: receive finished
    /// ```
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints a line for every event that passes through it.
    ///
    /// ```swift
    /// var log = ""
    /// let traced = Publishers.Print(upstream: Just(1), prefix: "just", to: log)
    /// ```
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are printed.
        public let upstream: Upstream
        /// The text each line starts with, followed by `": "` when not empty.
        public let prefix: String
        /// Where the lines go; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Makes a publisher that prints `upstream`'s events.
        ///
        /// ```swift
        /// let traced = Publishers.Print(upstream: Just(1), prefix: "just")
        /// ```
        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches `subscriber` behind the printer.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let printer = EventPrinter(prefix: prefix, stream: stream)
            let hooks = EventHooks<Output, Failure>(
                receiveSubscription: { printer.write("receive subscription: (\($0))") },
                receiveOutput: { printer.write("receive value: (\($0))") },
                receiveCompletion: {
                    switch $0 {
                    case .finished: printer.write("receive finished")
                    case .failure(let error): printer.write("receive error: (\(error))")
                    }
                },
                receiveCancel: { printer.write("receive cancel") },
                receiveRequest: { printer.write("request \(EventPrinter.describe($0))") })
            upstream.receive(
                subscriber:
                    Publishers.HandleEvents<Upstream>.Inner(
                        name: "Print", hooks: hooks,
                        returnedDemandHook: { printer.write("request \(EventPrinter.describe($0)) (synchronous)") },
                        downstream: subscriber))
        }
    }
}

/// Writes `print(_:to:)`'s lines, one at a time, to the stream or to standard output.
@usableFromInline
final class EventPrinter: Sendable {
    @usableFromInline
    let prefix: String
    @usableFromInline
    let stream: LockedState<(any TextOutputStream)?>

    @inlinable
    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix.isEmpty ? "" : prefix + ": "
        self.stream = LockedState(stream)
    }

    /// `"unlimited"` or `"max: (n)"`, as Combine prints demand.
    @inlinable
    static func describe(_ demand: Subscribers.Demand) -> String {
        demand.max.map { "max: (\($0))" } ?? "unlimited"
    }

    /// Writes one line as `Swift.print(_:to:)` does: with a stream, three writes (`""`, the line,
    /// `"\n"`), as in Combine. The lock keeps lines whole when events come from several threads;
    /// the stream is the caller's own text sink, which never calls back into the pipeline.
    @inlinable
    func write(_ line: String) {
        stream.withLock { stream in
            if var target = stream {
                // The three writes `Swift.print(_:to:)` makes.
                target.write("")
                target.write(prefix + line)
                target.write("\n")
                stream = target
            } else {
                Swift.print(prefix + line)
            }
        }
    }
}
