extension Result {
    /// Passes on an outcome from `Publisher._immediateOutcome()` as a subscriber of that
    /// publisher would receive it: the value, if there is one, then `.finished`; or the failure.
    ///
    /// ```swift
    /// Just(1)._immediateOutcome()?.replay(value: { print($0) }, completion: { print($0) })
    /// // 1, then finished
    /// ```
    @inlinable
    package func replay<Value>(value: (Value) -> Void, completion: (Subscribers.Completion<Failure>) -> Void)
    where Success == Value? {
        switch self {
        case .success(let output):
            if let output { value(output) }
            completion(.finished)
        case .failure(let error):
            completion(.failure(error))
        }
    }
}
