import Streams

extension Publishers {
    /// A connectable publisher that sends the scheduler's time every interval, on any
    /// scheduler: the counterpart of Foundation's `Timer.publish(every:on:in:)`, which is not
    /// available where Combine is not.
    ///
    /// Ticks start on `connect()`, or on the first subscription with `autoconnect()`; the first
    /// comes one interval after connecting. Cancelling the connection stops the ticks.
    ///
    /// ```swift
    /// let ticks = Publishers.Timer(every: .seconds(1), scheduler: DispatchQueue.main)
    ///     .autoconnect()
    ///     .sink { print("tick at", $0) }
    /// ```
    // Unchecked: it holds the scheduler, which need not be Sendable; its state is behind a lock.
    public final class Timer<Context: Scheduler>: ConnectablePublisher, @unchecked Sendable {
        /// The scheduler's time at each tick.
        public typealias Output = Context.SchedulerTimeType
        /// A timer never fails.
        public typealias Failure = Never

        /// The time between ticks.
        public let interval: Context.SchedulerTimeType.Stride
        /// How late a tick may be.
        public let tolerance: Context.SchedulerTimeType.Stride?
        /// The scheduler that times the ticks.
        public let scheduler: Context
        /// The options used for scheduling.
        public let options: Context.SchedulerOptions?

        @usableFromInline
        let subject = PassthroughSubject<Context.SchedulerTimeType, Never>()

        /// Makes a timer that ticks every `interval` once connected.
        ///
        /// ```swift
        /// let timer = Publishers.Timer(every: .milliseconds(500), scheduler: scheduler)
        /// ```
        public init(
            every interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride? = nil,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; it receives the ticks sent while it is subscribed.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts the ticks; cancel the result to stop them.
        ///
        /// ```swift
        /// let connection = timer.connect()
        /// ```
        public func connect() -> any Cancellable {
            let scheduler = self.scheduler
            let subject = self.subject
            return scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: interval,
                tolerance: tolerance ?? scheduler.minimumTolerance, options: options
            ) {
                subject.send(scheduler.now)
            }
        }
    }
}
