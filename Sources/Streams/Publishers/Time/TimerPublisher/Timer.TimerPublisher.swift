import Foundation

extension Foundation.Timer {
    /// Returns a connectable publisher that sends the current date every `interval` seconds,
    /// from a timer on `runLoop` in `mode`, as Combine's Foundation overlay does.
    ///
    /// Nothing is sent until `connect()` is called, or use `autoconnect()`. To test code that
    /// uses a timer, prefer `Publishers.Timer` on a `TestScheduler`.
    ///
    /// ```swift
    /// let clock = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print("tick", $0) }
    /// ```
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher of the current date, sent by a repeating Foundation timer.
    ///
    /// Every subscriber shares the one timer; `connect()` starts it and cancelling what
    /// `connect()` returned stops it.
    ///
    /// ```swift
    /// let ticks = Timer.TimerPublisher(interval: 0.5, runLoop: .main, mode: .default)
    /// let connection = ticks.connect()
    /// ```
    // Unchecked: it holds the run loop, which is not Sendable; its state is behind a lock.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The date of each tick.
        public typealias Output = Date
        /// A timer never fails.
        public typealias Failure = Never

        /// Seconds between ticks.
        public let interval: TimeInterval
        /// How late a tick may be, in seconds; nil for the timer's default.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// Scheduler options (there are none for a run loop).
        public let options: RunLoop.SchedulerOptions?

        @usableFromInline
        let subject = PassthroughSubject<Date, Never>()

        /// Makes a timer publisher; see ``Foundation/Timer/publish(every:tolerance:on:in:options:)``.
        ///
        /// ```swift
        /// let ticks = Timer.TimerPublisher(interval: 1, runLoop: .main, mode: .common)
        /// ```
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`; it receives the ticks after `connect()`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: TimerPublisherSubscriber(subscriber))
        }

        /// Starts the timer, whose first tick comes one interval later (as on Apple platforms;
        /// Linux's `Timer(timeInterval:repeats:block:)` would fire at once); cancel the result to
        /// stop it.
        ///
        /// ```swift
        /// let connection = ticks.connect()
        /// connection.cancel()
        /// ```
        public func connect() -> any Cancellable {
            let subject = self.subject
            let tick = TimerAction { subject.send(Date()) }
            let timer = Foundation.Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in
                tick.run()
            }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            return TimerPublisherConnection(timer: timer, tick: tick)
        }
    }
}
