import Foundation
import Streams
import Testing

@Suite("Backoff, Jitter, ErrorCategory")
struct BackoffTests {
    @Test func baseDelays() {
        #expect(Backoff.immediate.baseDelay(forRetry: 1) == .zero)
        #expect(Backoff.constant(.seconds(2)).baseDelay(forRetry: 7) == .seconds(2))
        let exponential = Backoff.exponential(initial: .milliseconds(200), multiplier: 2, maxDelay: .seconds(30), jitter: .none)
        #expect(exponential.baseDelay(forRetry: 1) == .milliseconds(200))
        #expect(exponential.baseDelay(forRetry: 2) == .milliseconds(400))
        #expect(exponential.baseDelay(forRetry: 3) == .milliseconds(800))
        #expect(exponential.baseDelay(forRetry: 8) == .milliseconds(25_600))
        #expect(exponential.baseDelay(forRetry: 9) == .seconds(30))
    }

    @Test func hugeRetryNumbersSaturateWithoutTrapping() {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: 10, maxDelay: .seconds(3_600))
        #expect(backoff.baseDelay(forRetry: Int.max) == .seconds(3_600))
        #expect(backoff.baseDelay(forRetry: 1_000) == .seconds(3_600))
        let slow = Backoff.exponential(initial: .zero, multiplier: 1, maxDelay: .zero)
        #expect(slow.baseDelay(forRetry: Int.max) == .zero)
    }

    @Test func everyJitteredDelayLiesWithinItsBounds() {
        var random = SeededRandomNumberGenerator(seed: 2026)
        for _ in 0..<3_000 {
            let initial = Duration.milliseconds(Int.random(in: 0...1_000, using: &random))
            let maxDelay = initial + .milliseconds(Int.random(in: 0...60_000, using: &random))
            let multiplier = Double.random(in: 1...4, using: &random)
            let retry = Int.random(in: 1...64, using: &random)
            for jitter in [Jitter.none, .full, .equal, .decorrelated] {
                let backoff = Backoff.exponential(initial: initial, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter)
                let base = backoff.baseDelay(forRetry: retry)
                #expect(base <= maxDelay)
                let previous = Duration.milliseconds(Int.random(in: 0...60_000, using: &random))
                let delay = backoff.delay(forRetry: retry, previous: previous, using: &random)
                switch jitter {
                case .none:
                    #expect(delay == base)
                case .full:
                    #expect(delay >= .zero && delay <= base)
                case .equal:
                    #expect(delay >= base / 2 - .nanoseconds(1) && delay <= base)
                case .decorrelated:
                    #expect(delay <= maxDelay)
                    #expect(delay >= min(initial, maxDelay))
                    #expect(delay <= max(initial, previous * 3))
                }
            }
        }
    }

    @Test func theSameSeedGivesTheSameDelays() {
        func delays(seed: UInt64) -> [Duration] {
            var random = SeededRandomNumberGenerator(seed: seed)
            let backoff = Backoff.exponential(jitter: .decorrelated)
            var previous: Duration?
            return (1...10).map { retry in
                let delay = backoff.delay(forRetry: retry, previous: previous, using: &random)
                previous = delay
                return delay
            }
        }
        #expect(delays(seed: 9) == delays(seed: 9))
        #expect(delays(seed: 9) != delays(seed: 10))
    }

    @Test func constantWithJitter() {
        var random = SeededRandomNumberGenerator(seed: 1)
        let backoff = Backoff.constant(.seconds(1), jitter: .full)
        for _ in 0..<100 {
            let delay = backoff.delay(forRetry: 1, previous: nil, using: &random)
            #expect(delay >= .zero && delay <= .seconds(1))
        }
        #expect(
            Backoff.constant(.seconds(1), jitter: .decorrelated).delay(forRetry: 3, previous: nil, using: &random) == .seconds(1))
    }

    @Test func badInputTraps() async {
        await #expect(processExitsWith: .failure) { _ = Backoff.constant(.seconds(-1)) }
        await #expect(processExitsWith: .failure) { _ = Backoff.exponential(multiplier: 0.5) }
        await #expect(processExitsWith: .failure) { _ = Backoff.exponential(initial: .seconds(5), maxDelay: .seconds(1)) }
        await #expect(processExitsWith: .failure) { _ = Backoff.immediate.baseDelay(forRetry: 0) }
    }

    enum APIError: CategorizedError {
        case timedOut, notFound, unauthorized
        var category: ErrorCategory {
            switch self {
            case .timedOut: .retryable
            case .notFound: .nonRetryable
            case .unauthorized: .requiresLogout
            }
        }
    }

    @Test func errorCategories() {
        #expect(APIError.timedOut.resolveCategory() == .retryable)
        #expect(APIError.unauthorized.resolveCategory() == .requiresLogout)
        let erased: any Error = APIError.timedOut
        #expect(erased.resolveCategory() == .retryable)
        #expect(TestError.oops.resolveCategory() == .nonRetryable)
        #expect(CocoaError(.fileNoSuchFile).resolveCategory() == .nonRetryable)
    }
}
