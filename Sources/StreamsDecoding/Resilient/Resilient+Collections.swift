extension Resilient {
    /// The element failures behind the outcome, or the whole collection's error.
    fileprivate var collectionErrors: (elements: [ElementFailure], whole: (any Error)?) {
        switch outcome {
        case .recoveredFrom(let errors as ElementErrors, _): (errors.failures, nil)
        case .recoveredFrom(let error, _): ([], error)
        default: ([], nil)
        }
    }
}

extension Resilient where Value: _ResilientArrayValue {
    /// Every error recovered from, in order: one per element left out, or the one error that
    /// made the whole value unusable (not an array).
    ///
    /// ```swift
    /// for error in feed.$posts.errors { log(error) }
    /// ```
    public var errors: [any Error] {
        let (elements, whole) = collectionErrors
        return whole.map { [$0] } ?? elements.map(\.error)
    }

    /// What became of each element sent, in the order sent: its value, or why it was left out.
    /// Empty when the whole value was unusable.
    ///
    /// ```swift
    /// let kept = feed.$posts.results.filter { (try? $0.get()) != nil }.count
    /// ```
    public var results: [Result<Value._Element, any Error>] {
        let values = wrappedValue._resilientElements
        let failures = collectionErrors.elements
        guard !failures.isEmpty else { return values.map { .success($0) } }
        var results: [Result<Value._Element, any Error>] = []
        results.reserveCapacity(values.count + failures.count)
        var nextValue = values.makeIterator()
        var nextFailure = failures.makeIterator()
        var failure = nextFailure.next()
        for index in 0..<(values.count + failures.count) {
            if let pending = failure, pending.key.intValue == index {
                results.append(.failure(pending.error))
                failure = nextFailure.next()
            } else if let value = nextValue.next() {
                results.append(.success(value))
            }
        }
        return results
    }
}

extension Resilient where Value: _ResilientDictionaryValue {
    /// Every error recovered from: one per entry left out, or the one error that made the whole
    /// value unusable (not an object).
    ///
    /// ```swift
    /// for error in prices.$byCurrency.errors { log(error) }
    /// ```
    public var errors: [any Error] {
        let (elements, whole) = collectionErrors
        return whole.map { [$0] } ?? elements.map(\.error)
    }

    /// What became of each entry sent, by key: its value, or why it was left out.
    ///
    /// ```swift
    /// if case .failure(let error) = prices.$byCurrency.results["EUR"] { log(error) }
    /// ```
    public var results: [String: Result<Value._Value, any Error>] {
        var results = wrappedValue._resilientEntries.mapValues { Result<Value._Value, any Error>.success($0) }
        for failure in collectionErrors.elements {
            results[failure.key.stringValue] = .failure(failure.error)
        }
        return results
    }
}
