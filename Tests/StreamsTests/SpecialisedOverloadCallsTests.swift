import Streams
import StreamsTesting
import Testing

/// Combine's specialised and fused overloads call their closures a fixed number of times:
/// a single value is tested once (comparators never, since there is nothing to compare), `nil`
/// and failures not at all, and a sequence's reduction stops where the standard library's does.
@Suite("Specialised and fused overloads: how often closures run")
struct SpecialisedOverloadCallsTests {
    /// A random-access collection that logs how it is read.
    struct LoggingCollection: RandomAccessCollection {
        let base: [Int]
        let log: Log<String>
        typealias Indices = Range<Int>

        var startIndex: Int { base.startIndex }
        var endIndex: Int { base.endIndex }
        var count: Int {
            log.append("count")
            return base.count
        }
        subscript(position: Int) -> Int {
            log.append("[\(position)]")
            return base[position]
        }
        subscript(bounds: Range<Int>) -> Slice<LoggingCollection> {
            log.append("[\(bounds)]")
            return Slice(base: self, bounds: bounds)
        }
    }

    /// A collection that logs how a sequence operation reads it.
    struct ReadLoggingCollection: Collection {
        let base: [Int]
        let log: Log<String>

        var startIndex: Int {
            log.append("startIndex")
            return base.startIndex
        }
        var endIndex: Int {
            log.append("endIndex")
            return base.endIndex
        }
        var count: Int {
            log.append("count")
            return base.count
        }
        var underestimatedCount: Int {
            log.append("underestimatedCount")
            return base.underestimatedCount
        }
        subscript(position: Int) -> Int {
            log.append("[\(position)]")
            return base[position]
        }
        func index(after index: Int) -> Int { base.index(after: index) }
        func makeIterator() -> IndexingIterator<[Int]> {
            log.append("makeIterator")
            return base.makeIterator()
        }
    }

    @Test func justPrependAndAppendReadTheSequenceAsCombineDoes() {
        let before = Log<String>()
        let prepended = Just(5).prepend(ReadLoggingCollection(base: [1, 2, 3, 4], log: before))
        #expect(prepended.sequence == [1, 2, 3, 4, 5])
        // `elements + [value]`: room reserved, then the append; never `count`.
        #expect(before.items == ["underestimatedCount", "underestimatedCount", "makeIterator"])
        let after = Log<String>()
        let appended = Just(1).append(ReadLoggingCollection(base: [2, 3, 4, 5], log: after))
        #expect(appended.sequence == [1, 2, 3, 4, 5])
        #expect(after.items == ["underestimatedCount", "makeIterator"])
    }

    @Test func justCallsEachPredicateOnceAndNoComparator() {
        var calls = 0
        let predicate = { (value: Int) -> Bool in
            calls += 1
            return value > 1
        }
        _ = Just(3).allSatisfy(predicate)
        _ = Just(3).contains(where: predicate)
        _ = Just(3).tryAllSatisfy(predicate)
        _ = Just(3).tryContains(where: predicate)
        _ = Just(3).drop(while: predicate)
        _ = Just(3).last(where: predicate)
        _ = Just(3).prefix(while: predicate)
        #expect(calls == 7)
        var compared: [String] = []
        let comparator = { (a: Int, b: Int) -> Bool in
            compared.append("\(a),\(b)")
            return a < b
        }
        _ = Just(3).min(by: comparator)
        _ = Just(3).max(by: comparator)
        _ = Just(3).removeDuplicates(by: comparator)
        #expect(compared.isEmpty)
        _ = Just(3).tryRemoveDuplicates(by: comparator)
        #expect(compared == ["3,3"])
        var reduced = 0
        _ = Just(3).reduce(0) {
            reduced += 1; return $0 + $1
        }
        _ = Just(3).tryReduce(0) {
            reduced += 1; return $0 + $1
        }
        #expect(reduced == 2)
    }

    @Test func resultCallsOncePerSuccessAndNeverForAFailure() {
        let success = Result<Int, TestError>.Publisher(3)
        let failure = Result<Int, TestError>.Publisher(.oops)
        for publisher in [success, failure] {
            var calls = 0
            let predicate = { (value: Int) -> Bool in
                calls += 1
                return value > 1
            }
            var compared: [String] = []
            let comparator = { (a: Int, b: Int) -> Bool in
                compared.append("\(a),\(b)")
                return a < b
            }
            _ = publisher.allSatisfy(predicate)
            _ = publisher.tryAllSatisfy(predicate)
            _ = publisher.contains(where: predicate)
            _ = publisher.tryContains(where: predicate)
            _ = publisher.reduce(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.tryReduce(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.scan(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.tryScan(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.min(by: comparator)
            _ = publisher.max(by: comparator)
            _ = publisher.removeDuplicates(by: comparator)
            let isSuccess = publisher == success
            #expect(calls == (isSuccess ? 8 : 0))
            #expect(compared.isEmpty)
            _ = publisher.tryMin(by: comparator)
            _ = publisher.tryMax(by: comparator)
            _ = publisher.tryRemoveDuplicates(by: comparator)
            #expect(compared == (isSuccess ? ["3,3", "3,3", "3,3"] : []))
        }
    }

    @Test func resultTryFormsTurnAThrowIntoTheFailure() {
        let success = Result<Int, TestError>.Publisher(3)
        let throwing = { (_: Int, _: Int) throws -> Bool in throw TestError.other }
        #expect(trace(success.tryMin(by: throwing)) == "! other")
        #expect(trace(success.tryMax(by: throwing)) == "! other")
        #expect(trace(success.tryRemoveDuplicates(by: throwing)) == "! other")
        #expect(trace(Result<Int, TestError>.Publisher(.oops).tryMin(by: throwing)) == "! oops")
    }

    @Test func resultIgnoreOutputFinishesEvenForAFailureAsInCombine() {
        // The return type, `Empty`, cannot fail: the failure is lost (documented).
        #expect(trace(Result<Int, TestError>.Publisher(.oops).ignoreOutput()) == "|")
    }

    @Test func optionalNeverCallsClosuresForNil() {
        for publisher in [Optional(3).publisher, Optional<Int>.none.publisher] {
            var calls = 0
            let predicate = { (value: Int) -> Bool in
                calls += 1
                return value > 1
            }
            var compared = 0
            let comparator = { (a: Int, b: Int) -> Bool in
                compared += 1
                return a < b
            }
            _ = publisher.allSatisfy(predicate)
            _ = publisher.contains(where: predicate)
            _ = publisher.drop(while: predicate)
            _ = publisher.first(where: predicate)
            _ = publisher.last(where: predicate)
            _ = publisher.prefix(while: predicate)
            _ = publisher.reduce(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.scan(0) { _, value in predicate(value) ? 1 : 0 }
            _ = publisher.min(by: comparator)
            _ = publisher.max(by: comparator)
            _ = publisher.removeDuplicates(by: comparator)
            #expect(calls == (publisher.output == nil ? 0 : 8))
            #expect(compared == 0)
        }
    }

    @Test func optionalCountOfNilIsZero() {
        // Combine publishes nothing here; an empty publisher's count is 0 (documented).
        #expect(Optional<Int>.none.publisher.count().output == 0)
        #expect(Optional(7).publisher.count().output == 1)
    }

    @Test func optionalPositionsAndLengths() {
        let some = Optional(3).publisher
        #expect(some.dropFirst(0).output == 3 && some.dropFirst(2).output == nil)
        #expect(some.output(at: 0).output == 3 && some.output(at: 1).output == nil)
        #expect(some.output(in: 0..<1).output == 3 && some.output(in: 0..<0).output == nil)
        #expect(some.output(in: 1..<(.max - 2)).output == nil && some.output(in: 0..<(.max - 2)).output == 3)
        #expect(some.output(in: ...0).output == 3 && some.output(in: ..<0).output == nil)
        #expect(some.prefix(1).output == 3 && some.prefix(0).output == nil)
        #expect(Optional<Int>.none.publisher.replaceEmpty(with: 9).output == 9)
        #expect(some.replaceEmpty(with: 9).output == 3)
        #expect(some.collect().output == [3])
    }

    @Test func justOutputInTestsMembershipOfPositionZero() {
        // Combine keys on the lower bound only (documented).
        #expect(Just(1).output(in: 0..<0).output == nil)
        #expect(Just(1).output(in: -10..<10).output == 1)
    }

    @Test func optionalTrapsOnANegativePosition() async {
        await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.dropFirst(-1) }
        await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(at: -1) }
        await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(in: -1..<2) }
        await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.prefix(-1) }
    }

    @Test func sequenceReductionsStopWhereTheStandardLibraryStops() {
        var seen: [Int] = []
        let numbers = [1, 2, 3, 4].publisher
        _ = numbers.allSatisfy {
            seen.append($0); return $0 < 2
        }
        #expect(seen == [1, 2])
        seen = []
        _ = numbers.contains {
            seen.append($0); return $0 == 3
        }
        #expect(seen == [1, 2, 3])
        seen = []
        _ = numbers.last {
            seen.append($0); return $0 < 3
        }
        #expect(seen == [4, 3, 2])
        seen = []
        _ = numbers.prefix {
            seen.append($0); return $0 < 2
        }
        #expect(seen == [1, 2])
        seen = []
        _ = numbers.drop {
            seen.append($0); return $0 < 2
        }
        #expect(seen == [1, 2])
        seen = []
        _ = numbers.reduce(0) {
            seen.append($1); return $0 + $1
        }
        #expect(seen == [1, 2, 3, 4])
        var compared = 0
        _ = numbers.min {
            compared += 1; return $0 < $1
        }
        #expect(compared == 3)
    }

    @Test func sequenceTryFormsTurnAThrowIntoTheFailure() {
        let numbers = [1, 2].publisher
        #expect(trace(numbers.tryAllSatisfy { _ in throw TestError.oops }) == "! oops")
        #expect(trace(numbers.tryContains { _ in throw TestError.oops }) == "! oops")
        #expect(trace(numbers.tryReduce(0) { _, _ in throw TestError.oops }) == "! oops")
        #expect(trace([Int]().publisher.min()) == "|")
        #expect(trace([Int]().publisher.last()) == "|")
    }

    @Test func sequenceReadsCollectionsNoMoreThanNeeded() {
        let log = Log<String>()
        let numbers = LoggingCollection(base: [5, 6, 7], log: log).publisher
        #expect(numbers.count().output == 3)
        #expect(log.items == ["count"])
        let typedCount = numbers.setFailureType(to: TestError.self).count()
        #expect(typedCount.result == .success(3))
        #expect(log.items == ["count", "count"])
        let log2 = Log<String>()
        let others = LoggingCollection(base: [5, 6, 7], log: log2).publisher
        #expect(others.output(at: 1).output == 6)
        #expect(others.output(at: 3).output == nil)
        #expect(others.output(at: -1).output == nil)
        #expect(log2.items == ["[1]"])
        let log3 = Log<String>()
        #expect(LoggingCollection(base: [5, 6, 7], log: log3).publisher.output(in: 1..<3).sequence == [6, 7])
        #expect(log3.items.first == "[1..<3]")
    }

    @Test func sequenceAppendAndPrependKeepTheCollectionType() {
        let text = "bc".publisher
        #expect(text.prepend("a").append("d").sequence == "abcd")
        #expect(text.prepend(["x", "y"]).sequence == "xybc")
        #expect(text.append("de".publisher).prepend("a".publisher).sequence == "abcde")
        let failing = [2].publisher.setFailureType(to: TestError.self)
        let joined: Publishers.Sequence<[Int], TestError> = failing.prepend(1).append(3)
        #expect(trace(joined) == "1 2 3 |")
    }

    @Test func fusedOperatorsKeepTheFirstUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subject.map { $0 }.tryMap { $0 }.upstream === subject)
        #expect(subject.tryMap { $0 }.map { $0 }.upstream === subject)
        #expect(subject.tryMap { $0 }.tryMap { $0 }.upstream === subject)
        #expect(subject.filter { _ in true }.tryFilter { _ in true }.upstream === subject)
        #expect(subject.tryFilter { _ in true }.filter { _ in true }.upstream === subject)
        #expect(subject.tryFilter { _ in true }.tryFilter { _ in true }.upstream === subject)
        #expect(subject.compactMap { $0 }.map { $0 }.upstream === subject)
        #expect(subject.tryCompactMap { $0 }.compactMap { $0 }.upstream === subject)
    }

    @Test func fusedClosuresRunOncePerValueAndFiltersShortCircuit() {
        let subject = PassthroughSubject<Int, Never>()
        var first: [Int] = []
        var second: [Int] = []
        let subscriber = TestSubscriber<Int, any Error>()
        subject
            .filter {
                first.append($0); return $0.isMultiple(of: 2)
            }
            .tryFilter {
                second.append($0); return $0 > 2
            }
            .tryMap { $0 * 10 }
            .map { $0 + 1 }
            .subscribe(subscriber)
        for value in 1...4 { subject.send(value) }
        #expect(first == [1, 2, 3, 4])
        #expect(second == [2, 4])
        #expect(subscriber.values == [41])
        var mapped: [Int] = []
        var compacted: [Int] = []
        let other = PassthroughSubject<Int, Never>()
        let sink = TestSubscriber<Int, any Error>()
        other
            .tryCompactMap { value -> Int? in
                mapped.append(value); return value > 1 ? value : nil
            }
            .compactMap { value -> Int? in
                compacted.append(value); if value == 3 { throw TestError.oops }; return value
            }
            .subscribe(sink)
        for value in 1...4 { other.send(value) }
        #expect(mapped == [1, 2, 3])
        #expect(compacted == [2, 3])
        #expect(sink.values == [2])
        guard case .failure(let error)? = sink.completion else {
            Issue.record("expected the thrown error, got \(String(describing: sink.completion))")
            return
        }
        #expect(error as? TestError == .oops)
    }
}
