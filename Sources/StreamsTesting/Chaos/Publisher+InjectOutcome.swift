import Streams

extension Publisher {
    /// Chaos for tests: each subscription (each call), while `isEnabled()` holds and with
    /// probability `rate` drawn from `generator`, gets `outcome` instead of a subscription to the
    /// upstream; other calls go to the upstream untouched.
    ///
    /// Like Polly's outcome injection, it stands for a dependency that answers wrongly, at a rate
    /// or in a window of time, so that a test can drive the resilience strategies around it on
    /// virtual time, the same way on every run.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let flaky = backend
    ///     .injectOutcome(.failure(.unavailable), when: { scheduler.now.nanoseconds < 10_000_000_000 })   // down for 10 s
    ///     .injectOutcome(.hang, rate: 0.1, using: ChaosGenerator(seed: 1))                  // and 10% hang
    /// ```
    public func injectOutcome(
        _ outcome: ChaosOutcome<Output, Failure>,
        rate: Double = 1,
        using generator: ChaosGenerator = ChaosGenerator(seed: 0),
        when isEnabled: @escaping () -> Bool = { true }
    ) -> AnyPublisher<Output, Failure> {
        let upstream = self
        return Deferred { () -> AnyPublisher<Output, Failure> in
            guard isEnabled(), generator.roll(rate) else { return upstream.eraseToAnyPublisher() }
            switch outcome {
            case .value(let value):
                return Just(value).setFailureType(to: Failure.self).eraseToAnyPublisher()
            case .failure(let error):
                return Fail(error: error).eraseToAnyPublisher()
            case .hang:
                return Empty(completeImmediately: false).eraseToAnyPublisher()
            }
        }
        .eraseToAnyPublisher()
    }
}
