/// The error a marble-diagram source fails with at a `#`.
///
/// ```swift
/// let source = scheduler.publisher(marbles: "-a-#")   // fails with MarbleFailure() at tick 3
/// ```
public struct MarbleFailure: Error, Hashable, Sendable {
    /// Makes the failure.
    ///
    /// ```swift
    /// let failing = Fail<String, MarbleFailure>(error: MarbleFailure())
    /// ```
    public init() {}
}
