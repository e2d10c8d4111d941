/// A publisher that sends no values: it finishes at once, or never.
///
/// ```swift
/// let nothing = Empty<Int, Never>()                             // finishes at once
/// let forever = Empty<Int, Never>(completeImmediately: false)   // never completes
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether subscribers receive `.finished` right after the subscription.
    public let completeImmediately: Bool

    /// Makes a publisher that sends no values and, if `completeImmediately`, finishes at once.
    ///
    /// ```swift
    /// let nothing = Empty<String, Never>()
    /// ```
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Makes an empty publisher with the output and failure types spelled out.
    ///
    /// ```swift
    /// let nothing = Empty(completeImmediately: true, outputType: Int.self, failureType: Never.self)
    /// ```
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    /// Sends ``Subscriptions/empty`` and, if `completeImmediately`, `.finished`.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// `.success(nil)` (`.finished` alone) when it completes immediately; nil when it never
    /// completes.
    ///
    /// ```swift
    /// Empty<Int, Never>()._immediateOutcome()   // .success(nil)
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Failure>? { completeImmediately ? .success(nil) : nil }

    /// Two empty publishers are equal when they complete the same way.
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
