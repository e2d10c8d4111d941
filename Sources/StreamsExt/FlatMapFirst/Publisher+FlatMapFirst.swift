import Streams

extension Publisher {
    /// Turns a value into a publisher and passes on its values; values that arrive while that
    /// inner publisher runs are ignored (their transform is never called). The next value after
    /// it finishes starts a new one. RxSwift's `flatMapFirst`.
    ///
    /// - This publisher is asked for all its values (the ignored ones are dropped, not held).
    /// - Demand: the downstream's requests go to the running inner publisher; what is left of
    ///   them when it finishes goes to the next one.
    /// - It finishes once this publisher and the running inner one have finished; a failure of
    ///   either fails it and cancels the other.
    /// - Cancelling cancels this publisher and the running inner one.
    ///
    /// ```
    /// taps:    --a--b--c-----d--|
    /// inner a:   -1----2-|
    /// inner d:               -3-|
    /// result:  ---1----2------3-|      (b and c arrive while a runs: ignored)
    /// ```
    ///
    /// ```swift
    /// let logins = loginTaps.flatMapFirst { _ in api.logIn() }   // taps during a login are ignored
    /// ```
    @inlinable
    public func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMapFirst<P, Self> where P.Failure == Failure {
        Publishers.FlatMapFirst(upstream: self, transform: transform)
    }
}
