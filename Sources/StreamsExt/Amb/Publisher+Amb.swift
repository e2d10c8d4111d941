import Streams

extension Publisher {
    /// Mirrors whichever of this publisher and `other` sends something first (a value or a
    /// completion); the other one is cancelled at that moment. CombineExt's `amb`.
    ///
    /// - Both are subscribed at once (this publisher first), before the downstream is handed its
    ///   subscription (as in CombineExt), and each is asked for one value to race with, whatever
    ///   the downstream has requested. The winner's first value waits for demand if there is
    ///   none; from then on the downstream's demand goes to the winner. A race decided before
    ///   the downstream has its subscription (by a publisher that sends when subscribed) is
    ///   delivered once it has it: the value as it asks, the completion at once.
    /// - The result completes as the winner does; a `.finished` waits for a value still held for
    ///   demand, a failure does not (the held value is dropped).
    /// - Cancelling before the race is decided cancels both.
    ///
    /// ```
    /// self:   ----a---b--|
    /// other:  --x---y-----        (sends first: wins)
    /// result: --x---y-----        (self is cancelled when x arrives)
    /// ```
    ///
    /// ```swift
    /// let fastest = primaryServer.fetch().amb(mirrorServer.fetch())
    /// ```
    @inlinable
    public func amb<Other: Publisher>(
        _ other: Other
    ) -> Publishers.Amb<Self, Other> where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }

    /// Mirrors the first of this publisher and `others` to send something; see ``amb(_:)``.
    ///
    /// ```swift
    /// let fastest = first.amb(with: second, third)
    /// ```
    @inlinable
    public func amb<Other: Publisher>(
        with others: Other...
    ) -> AnyPublisher<Output, Failure> where Other.Output == Output, Other.Failure == Failure {
        amb(with: others)
    }

    /// Mirrors the first of this publisher and the publishers of `others` to send something;
    /// see ``amb(_:)``. All of them race at once, in one race (see `Publishers.AmbMany`), this
    /// publisher subscribed first.
    ///
    /// ```swift
    /// let fastest = primary.amb(with: mirrors)
    /// ```
    @inlinable
    public func amb<Others: Collection>(
        with others: Others
    ) -> AnyPublisher<Output, Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        var all: [AnyPublisher<Output, Failure>] = [eraseToAnyPublisher()]
        all.reserveCapacity(others.count + 1)
        for other in others { all.append(other.eraseToAnyPublisher()) }
        return Publishers.AmbMany(all).eraseToAnyPublisher()
    }
}

extension Collection where Element: Publisher {
    /// Mirrors the first publisher of the collection to send something (a value or a
    /// completion), cancelling all the others at that moment; see `amb(_:)` and
    /// `Publishers.AmbMany`. It is one race, whatever the number of publishers: each event
    /// costs the same with 2 or 10,000 of them, and nothing recurses. An empty collection
    /// finishes at once, as in CombineExt.
    ///
    /// ```
    /// p0:     ------a--b--|
    /// p1:     ----x---y---        (sends first: wins; p0 and p2 are cancelled at x)
    /// p2:     --------------|
    /// result: ----x---y---
    /// ```
    ///
    /// ```swift
    /// let fastest = mirrors.map { $0.fetch() }.amb()
    /// ```
    @inlinable
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        Publishers.AmbMany(self).eraseToAnyPublisher()
    }
}
