import Streams

/// The pushback stage of `resilient(_:scheduler:)`: each attempt asks the pipeline's
/// ``PushbackLimiter`` before it subscribes (at once, after a wait on the scheduler, or refused
/// with ``ResilienceError/limiterRejected(_:)``), and the attempt's own values and failures
/// (`observed`, read below the other per-attempt stages) tell the limiter what the server said.
struct PushbackLimited<Upstream: Publisher, Context: Scheduler, Underlying: Error>: Publisher
where Context.SchedulerTimeType: TimelineInstant, Upstream.Failure == ResilienceError<Underlying> {
    typealias Output = Upstream.Output
    typealias Failure = ResilienceError<Underlying>

    let upstream: Upstream
    let limiter: PushbackLimiter
    let scheduler: Context
    /// The events of the pipeline call this stage is part of.
    let during: ResilienceEvents

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        GatedSubscription<Upstream, PushbackLimiter, S>.admit(
            limiter.acquire(at: scheduler.now.timelineOffset, during: during), downstream: subscriber, upstream: upstream,
            gate: limiter,
            lift: { $0 }, name: "PushbackLimiter", scheduler: scheduler)
    }
}

extension Publisher {
    /// Tells `limiter` what each value and failure of this attempt says about the server, at the
    /// scheduler's time: the innermost step of the pushback stage.
    func observed<S: Scheduler>(by limiter: PushbackLimiter, scheduler: S) -> Publishers.HandleEvents<Self>
    where S.SchedulerTimeType: TimelineInstant {
        handleEvents(
            receiveOutput: { value in limiter.observe(value: value, at: scheduler.now.timelineOffset) },
            receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    limiter.observe(failure: error, at: scheduler.now.timelineOffset)
                }
            })
    }
}
