import Streams

extension Publisher {
    /// Combines every value with the latest value of `other`, through `resultSelector`.
    ///
    /// - `other` is subscribed first, and asked for all its values; this publisher is subscribed
    ///   only once `other` has sent its first value, so no value of it is ever dropped for want
    ///   of a latest one (a publisher that emits as soon as it is subscribed, such as a
    ///   sequence, sends everything after `other`'s first value).
    /// - The result finishes or fails when this publisher does, and fails when `other` fails.
    ///   When `other` finishes, its last value keeps being used; if it finishes without any value,
    ///   the result finishes at once, since it could never send anything.
    /// - Demand: the downstream's requests go to this publisher, one value out per value in; the
    ///   ones made before `other`'s first value are added up and asked for when it is subscribed.
    /// - Cancelling cancels both.
    ///
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// let text = CurrentValueSubject<String, Never>("Hello")
    /// let cancellable = taps.withLatestFrom(text) { _, text in text }.sink { print($0) }
    /// taps.send()             // Hello
    /// text.send("World!")
    /// taps.send()             // World!
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other,
        resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, second: other, resultSelector: resultSelector)
    }

    /// Combines every value with the latest values of `other` and `other1`, through
    /// `resultSelector`: nothing is sent until both have a value. The two are followed with
    /// `combineLatest`; otherwise as ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let request = submit.withLatestFrom($user, $password) { _, credentials in credentials }
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
        _ other: Other,
        _ other1: Other1,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure {
        Publishers.WithLatestFrom(
            upstream: self, second: other.combineLatest(other1).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Combines every value with the latest values of three other publishers, through
    /// `resultSelector`: nothing is sent until all three have a value. Otherwise as
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let order = checkout.withLatestFrom(cart, address, payment) { _, state in state }
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
        _ other: Other,
        _ other1: Other1,
        _ other2: Other2,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure {
        Publishers.WithLatestFrom(
            upstream: self, second: other.combineLatest(other1, other2).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Replaces every value with the latest value of `other`. Otherwise as
    /// ``withLatestFrom(_:resultSelector:)``.
    ///
    /// ```swift
    /// let submitted = submitButtonTaps.withLatestFrom($query)   // the query at each tap
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        withLatestFrom(other) { $1 }
    }

    /// Replaces every value with the latest values of `other` and `other1`, as a tuple.
    ///
    /// ```swift
    /// let credentials = submit.withLatestFrom($user, $password)   // (user, password) at each tap
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher>(
        _ other: Other,
        _ other1: Other1
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output), Failure>, (Other.Output, Other1.Output)>
    where Other.Failure == Failure, Other1.Failure == Failure {
        withLatestFrom(other, other1) { $1 }
    }

    /// Replaces every value with the latest values of three other publishers, as a tuple.
    ///
    /// ```swift
    /// let snapshot = save.withLatestFrom($title, $body, $tags)   // (title, body, tags)
    /// ```
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
        _ other: Other,
        _ other1: Other1,
        _ other2: Other2
    )
        -> Publishers.WithLatestFrom<
            Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Failure>,
            (Other.Output, Other1.Output, Other2.Output)
        > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
    {
        withLatestFrom(other, other1, other2) { $1 }
    }
}
