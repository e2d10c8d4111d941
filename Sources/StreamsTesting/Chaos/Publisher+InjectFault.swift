import Streams

extension Publisher {
    /// Chaos for tests: each call, while `isEnabled()` holds and with probability `rate` drawn
    /// from `generator`, fails at once with `fault` and never reaches the upstream (Polly's fault
    /// injection). The same as `injectOutcome(.failure(fault), ...)`.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let outage = backend.injectFault(.unavailable, when: { (5_000_000_000..<20_000_000_000).contains(scheduler.now.nanoseconds) })
    /// ```
    public func injectFault(
        _ fault: Failure,
        rate: Double = 1,
        using generator: ChaosGenerator = ChaosGenerator(seed: 0),
        when isEnabled: @escaping () -> Bool = { true }
    ) -> AnyPublisher<Output, Failure> {
        injectOutcome(.failure(fault), rate: rate, using: generator, when: isEnabled)
    }
}
