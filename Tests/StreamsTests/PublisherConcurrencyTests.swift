import Streams
import StreamsExt
import XCTest

/// `values` in XCTest's async methods, the way code written for Combine uses them: these must
/// compile (an earlier shape of `AsyncThrowingPublisher` was reported to crash the compiler
/// here) and throw the publisher's failure.
final class PublisherConcurrencyTests: XCTestCase {
    enum Failure: Error, Equatable { case oops }

    func testAThrowingLoopOnFailThrowsItsError() async throws {
        var received: [Int] = []
        do {
            for try await value in Fail<Int, Failure>(error: .oops).values {
                received.append(value)
            }
            XCTFail("the loop should throw")
        } catch {
            XCTAssertEqual(error as? Failure, .oops)
        }
        XCTAssertEqual(received, [])
    }

    func testAThrowingLoopOnFailOfAnyError() async {
        do {
            for try await _ in Fail<Int, any Error>(error: Failure.oops).values {}
            XCTFail("the loop should throw")
        } catch {
            XCTAssertEqual(error as? Failure, .oops)
        }
    }

    func testTheIteratorThrowsOnceThenEnds() async throws {
        var iterator = Fail<Int, Failure>(error: .oops).values.makeAsyncIterator()
        do {
            _ = try await iterator.next()
            XCTFail("next() should throw")
        } catch {
            XCTAssertEqual(error as? Failure, .oops)
        }
        let afterTheFailure = try await iterator.next()
        XCTAssertNil(afterTheFailure)
    }

    func testALoopInATaskAndInAGenericHelper() async throws {
        let task = Task { () async throws -> [Int] in
            var received: [Int] = []
            for try await value in [1, 2].publisher.setFailureType(to: Failure.self).values {
                received.append(value)
            }
            return received
        }
        let fromTask = try await task.value
        XCTAssertEqual(fromTask, [1, 2])
        let fromHelper = try await collect([3].publisher.setFailureType(to: Failure.self))
        XCTAssertEqual(fromHelper, [3])
    }

    private func collect<P: Publisher>(_ publisher: P) async throws -> [P.Output] {
        var received: [P.Output] = []
        for try await value in publisher.values {
            received.append(value)
        }
        return received
    }
}
