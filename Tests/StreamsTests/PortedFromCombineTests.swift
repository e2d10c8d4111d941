import Foundation
import Streams
import StreamsTesting
import Testing

/// Code written the way Apple's Combine documentation shows it, with `import Combine` swapped for
/// `import Streams`: it must compile unchanged and print what the documentation says.
@Suite("Ported from Combine's documentation")
struct PortedFromCombineTests {
    @Test func sinkOnASequence() {
        // "let myRange = (0...3) ... .sink(receiveCompletion:receiveValue:)"
        var output: [String] = []
        let myRange = (0...3)
        let cancellable = myRange.publisher
            .sink(
                receiveCompletion: { output.append("completion: \($0)") },
                receiveValue: { output.append("value: \($0)") })
        #expect(output == ["value: 0", "value: 1", "value: 2", "value: 3", "completion: finished"])
        cancellable.cancel()
    }

    @Test func mapWithRomanNumerals() {
        let numbers = [5, 4, 3, 2, 1, 0]
        let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
        var output: [String] = []
        let cancellable = numbers.publisher
            .map { romanNumeralDict[$0] ?? "(unknown)" }
            .sink { output.append($0) }
        #expect(output == ["V", "IV", "III", "II", "I", "(unknown)"])
        cancellable.cancel()
    }

    @Test func tryMapThrowingOnZero() {
        struct ParseError: Error {}
        func romanNumeral(from: Int) throws -> String {
            let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
            guard let numeral = romanNumeralDict[from] else { throw ParseError() }
            return numeral
        }
        var output: [String] = []
        let cancellable = [5, 4, 3, 2, 1, 0].publisher
            .tryMap { try romanNumeral(from: $0) }
            .sink(
                receiveCompletion: { output.append("completion: \($0)") },
                receiveValue: { output.append($0) })
        #expect(output.prefix(5) == ["V", "IV", "III", "II", "I"])
        #expect(output.last?.hasPrefix("completion: failure(") == true)
        cancellable.cancel()
    }

    @Test func removeDuplicatesExample() {
        let numbers = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 0]
        var output: [Int] = []
        let cancellable = numbers.publisher
            .removeDuplicates()
            .sink { output.append($0) }
        #expect(output == [0, 1, 2, 3, 4, 0])
        cancellable.cancel()
    }

    @Test func scanExample() {
        var output: [Int] = []
        let cancellable = (0...5).publisher
            .scan(0) { $0 + $1 }
            .sink { output.append($0) }
        #expect(output == [0, 1, 3, 6, 10, 15])
        cancellable.cancel()
    }

    @Test func catchWithJust() {
        struct SimpleError: Error {}
        var output: [String] = []
        let numbers = [5, 4, 3, 2, 1, 0, 9, 8, 7, 6]
        let cancellable = numbers.publisher
            .tryMap { value -> Int in
                guard value != 0 else { throw SimpleError() }
                return value
            }
            .catch { _ in Just(-1) }
            .sink { output.append("\($0)") }
        #expect(output == ["5", "4", "3", "2", "1", "-1"])
        cancellable.cancel()
    }

    @Test func passthroughSubjectWithSink() {
        let subject = PassthroughSubject<String, Never>()
        var output: [String] = []
        let cancellable =
            subject
            .sink(
                receiveCompletion: { output.append("completion: \($0)") },
                receiveValue: { output.append("value: \($0)") })
        subject.send("Hello")
        subject.send("World")
        subject.send(completion: .finished)
        #expect(output == ["value: Hello", "value: World", "completion: finished"])
        cancellable.cancel()
    }

    @Test func combineLatestExample() {
        let pub1 = PassthroughSubject<Int, Never>()
        let pub2 = PassthroughSubject<Int, Never>()
        var output: [String] = []
        let cancellable =
            pub1
            .combineLatest(pub2)
            .sink { output.append("Result: \($0).") }
        pub1.send(1)
        pub1.send(2)
        pub2.send(2)
        pub1.send(3)
        pub1.send(45)
        pub2.send(22)
        #expect(output == ["Result: (2, 2).", "Result: (3, 2).", "Result: (45, 2).", "Result: (45, 22)."])
        cancellable.cancel()
    }

    @Test func zipExample() {
        let numbersPub = PassthroughSubject<Int, Never>()
        let lettersPub = PassthroughSubject<String, Never>()
        var output: [String] = []
        let cancellable =
            numbersPub
            .zip(lettersPub)
            .sink { output.append("\($0)") }
        numbersPub.send(1)
        numbersPub.send(2)
        lettersPub.send("A")
        numbersPub.send(3)
        lettersPub.send("B")
        lettersPub.send("C")
        lettersPub.send("D")
        #expect(output == ["(1, \"A\")", "(2, \"B\")", "(3, \"C\")"])
        cancellable.cancel()
    }

    @Test func mergeExample() {
        let pubA = PassthroughSubject<Int, Never>()
        let pubB = PassthroughSubject<Int, Never>()
        var output: [Int] = []
        let cancellable =
            pubA
            .merge(with: pubB)
            .sink { output.append($0) }
        pubA.send(1)
        pubB.send(40)
        pubA.send(2)
        pubB.send(50)
        #expect(output == [1, 40, 2, 50])
        cancellable.cancel()
    }

    @Test func flatMapWithMaxPublishers() {
        var output: [String] = []
        let cancellable = [1, 2, 3].publisher
            .flatMap(maxPublishers: .max(1)) { value in
                [value, value * 10].publisher
            }
            .sink { output.append("\($0)") }
        #expect(output == ["1", "10", "2", "20", "3", "30"])
        cancellable.cancel()
    }

    @Test func futureWithDeferredAndRetry() {
        var attempts = 0
        var output: [String] = []
        let cancellable = Deferred {
            Future<Int, URLError> { promise in
                attempts += 1
                promise(attempts < 3 ? .failure(URLError(.timedOut)) : .success(attempts))
            }
        }
        .retry(5)
        .sink(receiveCompletion: { output.append("\($0)") }, receiveValue: { output.append("value \($0)") })
        #expect(output == ["value 3", "finished"])
        cancellable.cancel()
    }

    @Test func assignToOnObject() {
        final class MyClass: @unchecked Sendable {
            var anInt: Int = 0 {
                didSet { changes.append(anInt) }
            }
            var changes: [Int] = []
        }
        let myObject = MyClass()
        let cancellable = (0...2).publisher.assign(to: \.anInt, on: myObject)
        #expect(myObject.changes == [0, 1, 2])
        cancellable.cancel()
    }

    @Test func shareAcrossTwoSinks() {
        var output: [String] = []
        let pub = (1...3).publisher
            .map { $0 * 10 }
            .share()
        let subject = PassthroughSubject<Void, Never>()
        let gate = subject.flatMap { pub }
        let first = gate.sink { output.append("first \($0)") }
        let second = pub.sink { output.append("second \($0)") }
        // The sequence ran for the first subscriber of `pub` only.
        #expect(output == ["second 10", "second 20", "second 30"])
        _ = (first, second)
    }
}
