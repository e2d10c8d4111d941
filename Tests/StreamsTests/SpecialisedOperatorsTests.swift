import Streams
import StreamsExt
import StreamsTesting
import Testing

/// Combine's specialised overloads return the source types: these tests pin the types (they fail
/// to compile if an overload is missing) and check the values.
@Suite("Specialised operators on Just, Sequence, Result and Optional publishers")
struct SpecialisedOperatorsTests {
    func values<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        var received: [P.Output] = []
        _ = publisher.sink { received.append($0) }
        return received
    }

    @Test func justOperators() {
        let mapped: Just<String> = Just(2).map { "\($0)" }
        #expect(mapped.output == "2")
        let tried: Result<Int, any Error>.Publisher = Just("x").tryMap { text in
            guard let number = Int(text) else { throw TestError.oops }
            return number
        }
        #expect((try? tried.result.get()) == nil)
        let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
        #expect(typed.result == .success(1))
        let scanned: Result<Int, Never>.Publisher = Just(5).scan(10, +)
        #expect(values(scanned) == [15])
        let filtered: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }
        #expect(filtered.output == nil)
        let compacted: Optional<Int>.Publisher = Just("7").compactMap { Int($0) }
        #expect(compacted.output == 7)
        let deduplicated: Just<Int> = Just(1).removeDuplicates()
        let replaced: Just<Int> = Just(1).replaceError(with: 0)
        let retried: Just<Int> = Just(1).retry(2)
        #expect([deduplicated, replaced, retried].allSatisfy { $0 == Just(1) })
    }

    @Test func moreJustOperators() {
        let collected: Just<[Int]> = Just(1).collect()
        #expect(collected.output == [1])
        let first: Just<Int> = Just(1).first()
        #expect(first == Just(1))
        let firstWhere: Optional<Int>.Publisher = Just(1).first { $0 > 5 }
        #expect(firstWhere.output == nil)
        #expect(Just(1).dropFirst().output == nil)
        #expect(Just(1).dropFirst(0).output == 1)
        #expect(Just(1).prefix(3).output == 1)
        #expect(Just(1).prefix(0).output == nil)
        #expect(Just(1).output(at: 0).output == 1)
        #expect(Just(1).output(at: 1).output == nil)
        #expect(Just(1).output(in: 0..<2).output == 1)
        #expect(Just(1).output(in: 1...).output == nil)
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
        let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
        #expect(appended.sequence == [1, 2, 3])
        #expect(prepended.sequence == [1, 2, 3])
    }

    /// A sequence that counts how many times it is iterated.
    final class CountingSequence: Sequence {
        let elements: [Int]
        private(set) var iterations = 0

        init(_ elements: [Int]) {
            self.elements = elements
        }

        func makeIterator() -> IndexingIterator<[Int]> {
            iterations += 1
            return elements.makeIterator()
        }
    }

    @Test func justPrependAndAppendReadASequenceOnceWhenCalled() {
        let before = CountingSequence([1, 2])
        let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(before)
        #expect(before.iterations == 1)
        #expect(prepended.sequence == [1, 2, 3])
        #expect(values(prepended) == [1, 2, 3])
        #expect(values(prepended) == [1, 2, 3])
        #expect(before.iterations == 1)

        let after = CountingSequence([2, 3])
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(after)
        #expect(after.iterations == 1)
        #expect(appended.sequence == [1, 2, 3])
        #expect(values(appended) == [1, 2, 3])
        #expect(after.iterations == 1)

        let range: Publishers.Sequence<[Int], Never> = Just(3).prepend(1...2)
        #expect(range.sequence == [1, 2, 3])
    }

    @Test func moreSequenceOperators() {
        let collected: Result<[Int], Never>.Publisher = [1, 2].publisher.collect()
        #expect(collected.result == .success([1, 2]))
        let first: Optional<Int>.Publisher = [3, 4].publisher.first()
        #expect(first.output == 3)
        let even: Optional<Int>.Publisher = [1, 2, 3].publisher.first { $0.isMultiple(of: 2) }
        #expect(even.output == 2)
        #expect([Int]().publisher.first().output == nil)
    }

    @Test func sequenceOperatorsAreEager() {
        var calls = 0
        let mapped: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { value -> Int in
            calls += 1
            return value * 2
        }
        #expect(calls == 3)
        #expect(mapped.sequence == [2, 4, 6])
        let filtered: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0.isMultiple(of: 2) }
        #expect(values(filtered) == [2, 4, 6])
        let compacted: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        #expect(values(compacted) == [1, 3])
        let scanned: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)
        #expect(values(scanned) == [1, 3, 6])
        let deduplicated: Publishers.Sequence<[Int], Never> = [1, 1, 2, 1].publisher.removeDuplicates()
        #expect(values(deduplicated) == [1, 2, 1])
        #expect(values([1, 2, 3].publisher.dropFirst()) == [2, 3])
        #expect(values([1, 2, 3].publisher.prefix(2)) == [1, 2])
        let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
        let prepended: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1, 2)
        #expect(appended.sequence == [1, 2, 3, 4])
        #expect(prepended.sequence == [1, 2, 3, 4])
        let typed: Publishers.Sequence<[Int], TestError> = [1].publisher.setFailureType(to: TestError.self)
        #expect(typed.sequence == [1])
    }

    @Test func resultAndOptionalOperators() {
        let mapped: Result<Int, TestError>.Publisher = Result<Int, TestError>.Publisher(2).map { $0 * 2 }
        #expect(mapped.result == .success(4))
        let tried: Result<Int, any Error>.Publisher = Result<String, TestError>.Publisher("4").tryMap { text in
            guard let number = Int(text) else { throw TestError.other }
            return number
        }
        #expect((try? tried.result.get()) == 4)
        let mappedError = Result<Int, TestError>.Publisher(.oops).mapError { _ in TestError.other }
        #expect(mappedError.result == .failure(.other))
        let replaced: Result<Int, Never>.Publisher = Result<Int, TestError>.Publisher(.oops).replaceError(with: 0)
        #expect(replaced.result == .success(0))
        let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.Publisher(1).setFailureType(to: TestError.self)
        #expect(typed.result == .success(1))
        let optional: Optional<Int>.Publisher = Optional(2).publisher.map { $0 * 3 }
        #expect(optional.output == 6)
        #expect(Optional(2).publisher.filter { $0 > 5 }.output == nil)
        #expect(Optional("7").publisher.compactMap { Int($0) }.output == 7)
    }
}
