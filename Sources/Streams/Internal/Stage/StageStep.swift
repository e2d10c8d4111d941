/// What a one-in, at-most-one-out operator does with one upstream value.
@usableFromInline
package enum StageStep<Output, Failure: Error> {
    /// Send `Output` downstream.
    case emit(Output)
    /// Send nothing, and ask upstream for one more value instead.
    case drop
    /// Send `Output`, then cancel upstream and finish.
    case emitAndFinish(Output)
    /// Cancel upstream and finish without sending anything.
    case finish
    /// Cancel upstream and fail.
    case fail(Failure)
}
