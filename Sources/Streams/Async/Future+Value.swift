extension Future where Failure == Never {
    /// The future's value, once it has one.
    ///
    /// Waits until the promise is fulfilled; like Combine's, it keeps waiting when the task is
    /// cancelled.
    ///
    /// ```swift
    /// let answer = Future<Int, Never> { promise in promise(.success(42)) }
    /// let value = await answer.value   // 42
    /// ```
    public var value: Output {
        get async {
            switch await outcome {
            case .success(let value): value
            }
        }
    }
}

extension Future {
    /// The future's value, once it has one; throws the future's failure.
    ///
    /// Waits until the promise is fulfilled; like Combine's, it keeps waiting when the task is
    /// cancelled.
    ///
    /// ```swift
    /// let user = try await Future<User, URLError> { promise in load(promise) }.value
    /// ```
    public var value: Output {
        get async throws {
            try await outcome.get()
        }
    }

    /// Subscribes once and waits for the success or the failure.
    var outcome: Result<Output, Failure> {
        get async {
            await withUnsafeContinuation { continuation in
                receive(subscriber: FutureValueSubscriber(continuation))
            }
        }
    }
}

/// The subscriber behind ``Future/value``: it asks for the value and resumes the waiting task
/// with the first value or failure.
final class FutureValueSubscriber<Input, Failure: Error>: Subscriber, Sendable {
    /// The waiting task, until it is resumed.
    let state: LockedState<UnsafeContinuation<Result<Input, Failure>, Never>?>

    init(_ continuation: UnsafeContinuation<Result<Input, Failure>, Never>) {
        state = LockedState(continuation)
    }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        resume(.success(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion {
            resume(.failure(error))
        }
    }

    /// Resumes the waiting task once; later calls do nothing.
    func resume(_ result: Result<Input, Failure>) {
        let continuation = state.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        // Handed from the promise's thread to the waiting task, as Combine's `value` does.
        nonisolated(unsafe) let result = result
        continuation?.resume(returning: result)
    }
}
