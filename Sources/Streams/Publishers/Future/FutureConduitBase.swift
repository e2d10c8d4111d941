/// The type-erased face of a future's subscription.
@usableFromInline
// Unchecked: a non-final class cannot be checked Sendable; its subclass keeps its state in a lock.
class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    /// Hands over the result; it is delivered once the subscriber can take it.
    @usableFromInline
    func fulfill(_ result: Result<Output, Failure>) {
        preconditionFailure("FutureConduitBase.fulfill(_:) is abstract")
    }
}
