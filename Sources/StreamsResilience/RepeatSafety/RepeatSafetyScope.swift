import Streams

/// The upstream of a resilience stage, subscribed with the call's `RepeatSafety` bound to
/// `RepeatSafety.current`, so that the request it sends can say it is not safe to repeat.
///
/// Binding happens only around `receive(subscriber:)`: a publisher that subscribes to its own
/// upstream later (`subscribe(on:)`, an inner publisher of `flatMap`) is not seen, and its call
/// stays as the stage was told (`isSafeToRepeat:`).
struct RepeatSafetyScope<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let safety: RepeatSafety

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        RepeatSafety.$current.withValue(safety) { upstream.receive(subscriber: subscriber) }
    }
}
