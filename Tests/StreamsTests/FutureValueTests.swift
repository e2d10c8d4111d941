import Dispatch
import Streams
import Testing

@Suite("Future.value")
struct FutureValueTests {
    @Test func aFutureThatCannotFailIsAwaitedWithoutTry() async {
        let future = Future<Int, Never> { promise in promise(.success(42)) }
        let value: Int = await future.value
        #expect(value == 42)
        #expect(await future.value == 42)
    }

    @Test func aFailingFutureThrowsItsFailure() async {
        let future = Future<Int, TestError> { promise in promise(.failure(.oops)) }
        await #expect(throws: TestError.oops) { try await future.value }
    }

    @Test func theValueArrivesWhenThePromiseIsFulfilledLater() async throws {
        let future = Future<String, TestError> { promise in
            DispatchQueue.global().async { promise(.success("later")) }
        }
        #expect(try await future.value == "later")
    }
}
