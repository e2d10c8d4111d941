import Streams

extension Publisher {
    /// Chaos for tests: each call, while `isEnabled()` holds and with probability `rate` drawn
    /// from `generator`, reaches the upstream only `latency` after its subscription, timed on
    /// `scheduler` (Polly's latency injection); its values are not delayed. Cancelling during the
    /// wait cancels it, and the upstream is never subscribed.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let slow = backend.injectLatency(.seconds(12), rate: 0.5, using: ChaosGenerator(seed: 3), scheduler: scheduler)
    /// ```
    public func injectLatency<S: Scheduler>(
        _ latency: Duration,
        rate: Double = 1,
        using generator: ChaosGenerator = ChaosGenerator(seed: 0),
        scheduler: S,
        when isEnabled: @escaping () -> Bool = { true }
    ) -> AnyPublisher<Output, Failure> {
        let upstream = self
        let (seconds, attoseconds) = latency.components
        let stride = S.SchedulerTimeType.Stride.nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        return Deferred { () -> AnyPublisher<Output, Failure> in
            guard isEnabled(), generator.roll(rate) else { return upstream.eraseToAnyPublisher() }
            return Just(())
                .setFailureType(to: Failure.self)
                .delay(for: stride, scheduler: scheduler)
                .flatMap { _ in upstream }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
