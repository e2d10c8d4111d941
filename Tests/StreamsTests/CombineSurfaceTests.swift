import Streams
import StreamsTesting
import Testing

/// Every specialised and fused overload of Combine's public interface, written from Combine's
/// documented signatures with the return types spelled out: the file compiles only if each
/// overload exists with Combine's exact type. Each check also pins what the publisher sends.
@Suite("Combine's specialised and fused overloads, with their exact types")
struct CombineSurfaceTests {
    struct Oops: Error, Equatable, CustomStringConvertible {
        var description: String { "oops" }
    }

    /// `Just` cannot fail: its `mapError` takes a function of `Never`.
    static func absurd(_ never: Never) -> Oops {}

    @Test func just() {
        let just = Just(3)
        let map: Just<String> = just.map { "\($0)" }
        let tryMap: Result<Int, any Error>.Publisher = just.tryMap { $0 + 1 }
        let mapError: Result<Int, Oops>.Publisher = just.mapError(Self.absurd)
        let setFailureType: Result<Int, Oops>.Publisher = just.setFailureType(to: Oops.self)
        let scan: Result<Int, Never>.Publisher = just.scan(10, +)
        let tryScan: Result<Int, any Error>.Publisher = just.tryScan(10) { _, _ in throw Oops() }
        let filter: Optional<Int>.Publisher = just.filter { $0 > 5 }
        let compactMap: Optional<Int>.Publisher = just.compactMap { $0 * 2 }
        let removeDuplicatesBy: Just<Int> = just.removeDuplicates { _, _ in true }
        let removeDuplicates: Just<Int> = just.removeDuplicates()
        let tryRemoveDuplicates: Result<Int, any Error>.Publisher = just.tryRemoveDuplicates { _, _ in true }
        let replaceError: Just<Int> = just.replaceError(with: 0)
        let replaceEmpty: Just<Int> = just.replaceEmpty(with: 0)
        let retry: Just<Int> = just.retry(2)
        let collect: Just<[Int]> = just.collect()
        let first: Just<Int> = just.first()
        let firstWhere: Optional<Int>.Publisher = just.first { $0 > 1 }
        let last: Just<Int> = just.last()
        let lastWhere: Optional<Int>.Publisher = just.last { $0 > 5 }
        let dropFirst: Optional<Int>.Publisher = just.dropFirst()
        let dropWhile: Optional<Int>.Publisher = just.drop { $0 > 1 }
        let prefix: Optional<Int>.Publisher = just.prefix(1)
        let prefixWhile: Optional<Int>.Publisher = just.prefix { $0 > 1 }
        let outputAt: Optional<Int>.Publisher = just.output(at: 0)
        let outputIn: Optional<Int>.Publisher = just.output(in: 1..<3)
        let min: Just<Int> = just.min()
        let max: Just<Int> = just.max()
        let minBy: Just<Int> = just.min { $0 < $1 }
        let maxBy: Just<Int> = just.max { $0 < $1 }
        let contains: Just<Bool> = just.contains(3)
        let containsWhere: Just<Bool> = just.contains { $0 > 5 }
        let tryContains: Result<Bool, any Error>.Publisher = just.tryContains { _ in throw Oops() }
        let allSatisfy: Just<Bool> = just.allSatisfy { $0 > 0 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = just.tryAllSatisfy { $0 > 5 }
        let count: Just<Int> = just.count()
        let ignoreOutput: Empty<Int, Never> = just.ignoreOutput()
        let reduce: Result<Int, Never>.Publisher = just.reduce(1, +)
        let tryReduce: Result<Int, any Error>.Publisher = just.tryReduce(1, +)
        let append: Publishers.Sequence<[Int], Never> = just.append(4, 5)
        let appendSequence: Publishers.Sequence<[Int], Never> = just.append(4...5)
        let prepend: Publishers.Sequence<[Int], Never> = just.prepend(1, 2)
        let prependSequence: Publishers.Sequence<[Int], Never> = just.prepend(1...2)

        #expect(trace(map) == "3 |")
        #expect(trace(tryMap) == "4 |")
        #expect(mapError.result == .success(3) && setFailureType.result == .success(3))
        #expect(trace(scan) == "13 |" && trace(tryScan) == "! oops")
        #expect(trace(filter) == "|" && trace(compactMap) == "6 |")
        #expect([removeDuplicatesBy, removeDuplicates, replaceError, replaceEmpty, retry].allSatisfy { $0 == just })
        #expect(trace(tryRemoveDuplicates) == "3 |")
        #expect(trace(collect) == "[3] |")
        #expect([first, last, min, max, minBy, maxBy].allSatisfy { $0 == just })
        #expect(trace(firstWhere) == "3 |" && trace(lastWhere) == "|")
        #expect(trace(dropFirst) == "|" && trace(dropWhile) == "|")
        #expect(trace(prefix) == "3 |" && trace(prefixWhile) == "3 |")
        #expect(trace(outputAt) == "3 |" && trace(outputIn) == "|")
        #expect(contains.output && !containsWhere.output && allSatisfy.output)
        #expect(trace(tryContains) == "! oops" && trace(tryAllSatisfy) == "false |")
        #expect(count.output == 1 && trace(ignoreOutput) == "|")
        #expect(trace(reduce) == "4 |" && trace(tryReduce) == "4 |")
        #expect(append.sequence == [3, 4, 5] && appendSequence.sequence == [3, 4, 5])
        #expect(prepend.sequence == [1, 2, 3] && prependSequence.sequence == [1, 2, 3])
    }

    @Test func resultPublisher() {
        let success = Result<Int, Oops>.Publisher(3)
        let failure = Result<Int, Oops>.Publisher(Oops())
        let map: Result<String, Oops>.Publisher = success.map { "\($0)" }
        let tryMap: Result<Int, any Error>.Publisher = success.tryMap { $0 + 1 }
        let mappedError: Result<Int, TestError>.Publisher = failure.mapError { _ in TestError.oops }
        let replaceError: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
        let setFailureType: Result<Int, Oops>.Publisher = Result<Int, Never>.Publisher(1).setFailureType(to: Oops.self)
        let contains: Result<Bool, Oops>.Publisher = success.contains(3)
        let removeDuplicates: Result<Int, Oops>.Publisher = success.removeDuplicates()
        let min: Result<Int, Oops>.Publisher = success.min()
        let max: Result<Int, Oops>.Publisher = success.max()
        let allSatisfy: Result<Bool, Oops>.Publisher = success.allSatisfy { $0 > 5 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = success.tryAllSatisfy { $0 > 0 }
        let containsWhere: Result<Bool, Oops>.Publisher = failure.contains { $0 > 5 }
        let tryContains: Result<Bool, any Error>.Publisher = success.tryContains { _ in throw TestError.other }
        let collect: Result<[Int], Oops>.Publisher = success.collect()
        let minBy: Result<Int, Oops>.Publisher = success.min { $0 < $1 }
        let tryMinBy: Result<Int, any Error>.Publisher = success.tryMin { $0 < $1 }
        let maxBy: Result<Int, Oops>.Publisher = success.max { $0 < $1 }
        let tryMaxBy: Result<Int, any Error>.Publisher = failure.tryMax { $0 < $1 }
        let count: Result<Int, Oops>.Publisher = success.count()
        let first: Result<Int, Oops>.Publisher = success.first()
        let last: Result<Int, Oops>.Publisher = success.last()
        let ignoreOutput: Empty<Int, Oops> = success.ignoreOutput()
        let removeDuplicatesBy: Result<Int, Oops>.Publisher = success.removeDuplicates { $0 == $1 }
        let tryRemoveDuplicates: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates { _, _ in
            throw TestError.other
        }
        let replaceEmpty: Result<Int, Oops>.Publisher = success.replaceEmpty(with: 0)
        let retry: Result<Int, Oops>.Publisher = failure.retry(3)
        let reduce: Result<Int, Oops>.Publisher = success.reduce(1, +)
        let tryReduce: Result<Int, any Error>.Publisher = failure.tryReduce(1, +)
        let scan: Result<Int, Oops>.Publisher = success.scan(1, +)
        let tryScan: Result<Int, any Error>.Publisher = success.tryScan(1, +)

        #expect(trace(map) == "3 |" && trace(tryMap) == "4 |")
        #expect(mappedError.result == .failure(.oops) && replaceError.result == .success(0))
        #expect(setFailureType.result == .success(1))
        #expect(contains.result == .success(true) && allSatisfy.result == .success(false))
        #expect(
            [removeDuplicates, min, max, minBy, maxBy, first, last, removeDuplicatesBy, replaceEmpty].allSatisfy {
                $0 == success
            })
        #expect(retry == failure)
        #expect(trace(tryAllSatisfy) == "true |" && containsWhere.result == .failure(Oops()))
        #expect(trace(tryContains) == "! other" && collect.result == .success([3]))
        #expect(trace(tryMinBy) == "3 |" && trace(tryMaxBy) == "! oops")
        #expect(count.result == .success(1) && trace(ignoreOutput) == "|")
        #expect(trace(tryRemoveDuplicates) == "! other")
        #expect(reduce.result == .success(4) && trace(tryReduce) == "! oops")
        #expect(scan.result == .success(4) && trace(tryScan) == "4 |")
    }

    @Test func optionalPublisher() {
        let some = Optional(3).publisher
        let none = Optional<Int>.none.publisher
        let map: Optional<String>.Publisher = some.map { "\($0)" }
        let filter: Optional<Int>.Publisher = some.filter { $0 > 5 }
        let compactMap: Optional<Int>.Publisher = some.compactMap { $0 * 2 }
        let contains: Optional<Bool>.Publisher = some.contains(3)
        let removeDuplicates: Optional<Int>.Publisher = some.removeDuplicates()
        let min: Optional<Int>.Publisher = some.min()
        let max: Optional<Int>.Publisher = some.max()
        let allSatisfy: Optional<Bool>.Publisher = some.allSatisfy { $0 > 5 }
        let collect: Optional<[Int]>.Publisher = none.collect()
        let minBy: Optional<Int>.Publisher = some.min { $0 < $1 }
        let maxBy: Optional<Int>.Publisher = some.max { $0 < $1 }
        let containsWhere: Optional<Bool>.Publisher = none.contains { $0 > 5 }
        let count: Optional<Int>.Publisher = some.count()
        let dropFirst: Optional<Int>.Publisher = some.dropFirst()
        let dropWhile: Optional<Int>.Publisher = some.drop { $0 > 5 }
        let first: Optional<Int>.Publisher = some.first()
        let firstWhere: Optional<Int>.Publisher = some.first { $0 > 5 }
        let last: Optional<Int>.Publisher = some.last()
        let lastWhere: Optional<Int>.Publisher = some.last { $0 > 1 }
        let ignoreOutput: Empty<Int, Never> = some.ignoreOutput()
        let outputAt: Optional<Int>.Publisher = some.output(at: 0)
        let outputIn: Optional<Int>.Publisher = some.output(in: ...2)
        let prefix: Optional<Int>.Publisher = some.prefix(0)
        let prefixWhile: Optional<Int>.Publisher = some.prefix { $0 > 1 }
        let reduce: Optional<Int>.Publisher = some.reduce(1, +)
        let scan: Optional<Int>.Publisher = none.scan(1, +)
        let removeDuplicatesBy: Optional<Int>.Publisher = some.removeDuplicates { $0 == $1 }
        let replaceError: Optional<Int>.Publisher = some.replaceError(with: 0)
        let replaceEmpty: Just<Int> = none.replaceEmpty(with: 0)
        let retry: Optional<Int>.Publisher = some.retry(1)

        #expect(map.output == "3" && filter.output == nil && compactMap.output == 6)
        #expect(contains.output == true && allSatisfy.output == false && containsWhere.output == nil)
        #expect(
            [removeDuplicates, min, max, minBy, maxBy, first, last, removeDuplicatesBy, replaceError, retry].allSatisfy {
                $0 == some
            })
        #expect(collect.output == [] && count.output == 1)
        #expect(dropFirst.output == nil && dropWhile.output == 3)
        #expect(firstWhere.output == nil && lastWhere.output == 3)
        #expect(trace(ignoreOutput) == "|" && outputAt.output == 3 && outputIn.output == 3)
        #expect(prefix.output == nil && prefixWhile.output == 3)
        #expect(reduce.output == 4 && scan.output == nil && replaceEmpty.output == 0)
    }

    @Test func sequence() {
        let numbers = [3, 1, 2].publisher
        let typed = [3, 1, 2].publisher.setFailureType(to: Oops.self)
        let map: Publishers.Sequence<[String], Never> = numbers.map { "\($0)" }
        let filter: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
        let compactMap: Publishers.Sequence<[Int], Never> = numbers.compactMap { $0 > 1 ? $0 : nil }
        let scan: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        let dropFirst: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst()
        let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
        let setFailureType: Publishers.Sequence<[Int], Oops> = typed
        let removeDuplicates: Publishers.Sequence<[Int], Never> = [1, 1, 2].publisher.removeDuplicates()
        let collect: Result<[Int], Never>.Publisher = numbers.collect()
        let first: Optional<Int>.Publisher = numbers.first()
        let firstWhere: Optional<Int>.Publisher = numbers.first { $0 < 3 }
        let allSatisfy: Result<Bool, Oops>.Publisher = typed.allSatisfy { $0 > 0 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { _ in throw Oops() }
        let containsWhere: Result<Bool, Never>.Publisher = numbers.contains { $0 > 2 }
        let tryContains: Result<Bool, any Error>.Publisher = numbers.tryContains { $0 > 5 }
        let contains: Result<Bool, Oops>.Publisher = typed.contains(2)
        let dropWhile: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 > 2 }
        let prefixWhile: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 > 2 }
        let ignoreOutput: Empty<Int, Oops> = typed.ignoreOutput()
        let reduce: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let tryReduce: Result<Int, any Error>.Publisher = numbers.tryReduce(0, +)
        let replaceNil: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        let minBy: Optional<Int>.Publisher = numbers.min { $0 < $1 }
        let maxBy: Optional<Int>.Publisher = numbers.max { $0 < $1 }
        let min: Optional<Int>.Publisher = numbers.min()
        let max: Optional<Int>.Publisher = numbers.max()
        let countCollection: Result<Int, Never>.Publisher = Set([1, 2]).publisher.count()
        let countRandomAccess: Result<Int, Oops>.Publisher = typed.count()
        let count: Just<Int> = numbers.count()
        let outputInCollection: Publishers.Sequence<[Character], Oops> =
            "abc".publisher.setFailureType(to: Oops.self).output(in: "abc".startIndex..<"abc".index(before: "abc".endIndex))
        let outputAtCollection: Optional<Character>.Publisher = "abc".publisher.output(at: "abc".startIndex)
        let outputIn: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<3)
        let outputAt: Optional<Int>.Publisher = numbers.output(at: 5)
        let last: Optional<Int>.Publisher = numbers.last()
        let lastWhere: Optional<Int>.Publisher = numbers.last { $0 > 1 }
        let append: Publishers.Sequence<[Int], Never> = numbers.append(4, 5)
        let appendSequence: Publishers.Sequence<[Int], Never> = numbers.append(4...5)
        let appendPublisher: Publishers.Sequence<[Int], Never> = numbers.append([4].publisher)
        let prepend: Publishers.Sequence<[Int], Never> = numbers.prepend(4, 5)
        let prependSequence: Publishers.Sequence<[Int], Never> = numbers.prepend(4...5)
        let prependPublisher: Publishers.Sequence<[Int], Never> = numbers.prepend([4].publisher)
        let appendToString: Publishers.Sequence<String, Never> = "ab".publisher.append("c")
        // A sequence that cannot grow (a range) appends through the generic operator.
        let appendToRange:
            Publishers.Concatenate<
                Publishers.Sequence<ClosedRange<Int>, Never>, Publishers.Sequence<[Int], Never>
            > = (1...2).publisher.append(3)

        #expect(map.sequence == ["3", "1", "2"] && filter.sequence == [3, 2] && compactMap.sequence == [3, 2])
        #expect(scan.sequence == [3, 4, 6] && trace(dropFirst) == "1 2 |" && trace(prefix) == "3 1 |")
        #expect(setFailureType.sequence == [3, 1, 2] && removeDuplicates.sequence == [1, 2])
        #expect(collect.result == .success([3, 1, 2]) && first.output == 3 && firstWhere.output == 1)
        #expect(allSatisfy.result == .success(true) && trace(tryAllSatisfy) == "! oops")
        #expect(containsWhere.result == .success(true) && trace(tryContains) == "false |")
        #expect(contains.result == .success(true))
        #expect(trace(dropWhile) == "1 2 |" && prefixWhile.sequence == [3] && trace(ignoreOutput) == "|")
        #expect(reduce.result == .success(6) && trace(tryReduce) == "6 |")
        #expect(replaceNil.sequence == [1, 0])
        #expect(minBy.output == 1 && maxBy.output == 3 && min.output == 1 && max.output == 3)
        #expect(countCollection.result == .success(2) && countRandomAccess.result == .success(3) && count.output == 3)
        #expect(outputInCollection.sequence == ["a", "b"] && outputAtCollection.output == "a")
        #expect(outputIn.sequence == [1, 2] && outputAt.output == nil)
        #expect(last.output == 2 && lastWhere.output == 2)
        #expect(append.sequence == [3, 1, 2, 4, 5] && appendSequence.sequence == [3, 1, 2, 4, 5])
        #expect(appendPublisher.sequence == [3, 1, 2, 4])
        #expect(prepend.sequence == [4, 5, 3, 1, 2] && prependSequence.sequence == [4, 5, 3, 1, 2])
        #expect(prependPublisher.sequence == [4, 3, 1, 2] && appendToString.sequence == "abc")
        #expect(trace(appendToRange) == "1 2 3 |")
    }

    /// What the publisher `make` builds on a subject sends when the subject sends 1, 2, 3 and
    /// finishes.
    func fused<P: Publisher>(_ make: (PassthroughSubject<Int, Never>) -> P) -> String {
        let subject = PassthroughSubject<Int, Never>()
        return trace(make(subject)) {
            for value in 1...3 { subject.send(value) }
            subject.send(completion: .finished)
        }
    }

    @Test func fusion() {
        typealias Subject = PassthroughSubject<Int, Never>
        #expect(fused { subject -> Publishers.Map<Subject, Int> in subject.map { $0 + 1 }.map { $0 * 2 } } == "4 6 8 |")
        #expect(
            fused { subject -> Publishers.TryMap<Subject, Int> in
                subject.map { $0 + 1 }.tryMap { if $0 == 3 { throw Oops() } else { $0 * 2 } }
            } == "4 ! oops")
        #expect(fused { subject -> Publishers.TryMap<Subject, Int> in subject.tryMap { $0 + 1 }.map { $0 * 2 } } == "4 6 8 |")
        #expect(
            fused { subject -> Publishers.TryMap<Subject, Int> in
                subject.tryMap { $0 + 1 }.tryMap { $0 * 2 }
            } == "4 6 8 |")
        #expect(fused { subject -> Publishers.Filter<Subject> in subject.filter { $0 > 1 }.filter { $0 < 3 } } == "2 |")
        #expect(
            fused { subject -> Publishers.TryFilter<Subject> in
                subject.filter { $0 > 1 }.tryFilter { $0 < 3 }
            } == "2 |")
        #expect(
            fused { subject -> Publishers.TryFilter<Subject> in
                subject.tryFilter { $0 > 1 }.filter { $0 < 3 }
            } == "2 |")
        #expect(
            fused { subject -> Publishers.TryFilter<Subject> in
                subject.tryFilter { $0 > 1 }.tryFilter { $0 < 3 }
            } == "2 |")
        #expect(
            fused { subject -> Publishers.CompactMap<Subject, Int> in
                subject.compactMap { $0 > 1 ? $0 : nil }.compactMap { $0 < 3 ? $0 : nil }
            } == "2 |")
        #expect(
            fused { subject -> Publishers.CompactMap<Subject, String> in
                subject.compactMap { $0 > 1 ? $0 : nil }.map { "\($0)" }
            } == "2 3 |")
        #expect(
            fused { subject -> Publishers.TryCompactMap<Subject, Int> in
                subject.tryCompactMap { $0 > 1 ? $0 : nil }.compactMap { $0 < 3 ? $0 : nil }
            } == "2 |")
        #expect(
            fused { subject -> Publishers.Merge3<Subject, Just<Int>, Just<Int>> in
                subject.merge(with: Just(7)).merge(with: Just(8))
            } == "7 8 1 2 3 |")
        #expect(
            fused { subject -> Publishers.SetFailureType<Subject, Oops> in
                subject.setFailureType(to: TestError.self).setFailureType(to: Oops.self)
            } == "1 2 3 |")
        let mergeMany: Publishers.MergeMany<Just<Int>> = Just(1).merge(with: Just(2)).merge(with: Just(3))
        #expect(trace(mergeMany) == "1 2 3 |")
    }
}
