/// How each kind of `@Resilient` value is decoded, written once for both sources.
@usableFromInline
enum ResilientDecoding {
    /// `T?`: `nil` for a missing key, `null` or a value that cannot be decoded. An optional
    /// array or dictionary keeps what it can of its elements, and is empty (not `nil`) when the
    /// value is not a collection at all.
    @inlinable
    static func optional<Wrapped: Decodable>(_ type: Wrapped.Type, from source: some ResilientSource) -> Resilient<Wrapped?> {
        if let collection = Wrapped.self as? any ResilientCollectionKind.Type {
            return collection.decodeOptional(from: source) as! Resilient<Wrapped?>
        }
        if source.isMissing { return Resilient(nil, outcome: .keyNotFound) }
        if source.decodeNil() { return Resilient(nil, outcome: .valueWasNil) }
        do {
            return Resilient(try source.decode(Wrapped.self), outcome: .decodedSuccessfully)
        } catch {
            return Resilient(nil, outcome: .recoveredFrom(error, wasReported: report(error, from: source)))
        }
    }

    /// A raw-representable value with a fallback for a missing key, `null` or a bad value.
    @inlinable
    static func withFallback<Raw: ResilientRawRepresentable>(
        _ type: Raw.Type, fallback: @autoclosure () -> Raw, from source: some ResilientSource
    ) -> Resilient<Raw> {
        if source.isMissing { return Resilient(fallback(), outcome: .keyNotFound) }
        if source.decodeNil() { return Resilient(fallback(), outcome: .valueWasNil) }
        do {
            return Resilient(try source.decode(Raw.self), outcome: .decodedSuccessfully)
        } catch {
            return Resilient(fallback(), outcome: .recoveredFrom(error, wasReported: report(error, from: source)))
        }
    }

    /// A raw-representable value whose type declares a fallback, checked when the program runs.
    static func withFallback<Raw: ResilientRawRepresentable>(_ type: Raw.Type, from source: some ResilientSource) -> Resilient<
        Raw
    > {
        withFallback(Raw.self, fallback: Raw.decodingFallback as! Raw, from: source)
    }

    /// The elements of an array that decode; `nil` for a missing key or `null`, and none (with
    /// the error recorded) for a value that is not an array.
    @inlinable
    static func elements<Element: Decodable>(
        _ type: Element.Type, from source: some ResilientSource
    ) -> (value: [Element]?, outcome: ResilientDecodingOutcome) {
        if source.isMissing { return (nil, .keyNotFound) }
        if source.decodeNil() { return (nil, .valueWasNil) }
        var container: any UnkeyedDecodingContainer
        do {
            container = try source.unkeyedContainer()
        } catch {
            return ([], .recoveredFrom(error, wasReported: report(error, from: source)))
        }
        var elements: [Element] = []
        elements.reserveCapacity(container.count ?? 0)
        var failures: [ElementFailure] = []
        var index = 0
        while !container.isAtEnd {
            let before = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                failures.append(ElementFailure(key: AnyCodingKey(intValue: index), error: error))
                // A container that stays on a bad element is moved past it; one that cannot be
                // moved would loop for ever, so decoding stops there.
                if container.currentIndex == before, (try? container.decode(SkippedValue.self)) == nil { break }
            }
            index += 1
        }
        return (elements, outcome(failures, from: source))
    }

    /// The entries of a `[String: T]` that decode, decoded in key order; `nil` for a missing key
    /// or `null`, and none (with the error recorded) for a value that is not an object.
    @inlinable
    static func entries<Value: Decodable>(
        _ type: Value.Type, from source: some ResilientSource
    ) -> (value: [String: Value]?, outcome: ResilientDecodingOutcome) {
        if source.isMissing { return (nil, .keyNotFound) }
        if source.decodeNil() { return (nil, .valueWasNil) }
        let container: KeyedDecodingContainer<AnyCodingKey>
        do {
            container = try source.keyedContainer()
        } catch {
            return ([:], .recoveredFrom(error, wasReported: report(error, from: source)))
        }
        var entries: [String: Value] = [:]
        var failures: [ElementFailure] = []
        // `allKeys` comes in the order of a hash table, which differs from one decode to the next;
        // in key order, what the entries report (their own errors, then the ones left out) reads
        // the same every time the same data is decoded.
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            do {
                entries[key.stringValue] = try container.decode(Value.self, forKey: key)
            } catch {
                failures.append(ElementFailure(key: key, error: error))
            }
        }
        return (entries, outcome(failures, from: source))
    }

    @usableFromInline
    static func outcome(_ failures: [ElementFailure], from source: some ResilientSource) -> ResilientDecodingOutcome {
        guard !failures.isEmpty else { return .decodedSuccessfully }
        let reporter = source.reporter()
        if let reporter {
            let path = source.codingPath
            for failure in failures {
                reporter.report(failure.error, at: path + [failure.key])
            }
        }
        return .recoveredFrom(ElementErrors(failures: failures), wasReported: reporter != nil)
    }

    @usableFromInline
    static func report(_ error: any Error, from source: some ResilientSource) -> Bool {
        guard let reporter = source.reporter() else { return false }
        reporter.report(error, at: source.codingPath)
        return true
    }
}
