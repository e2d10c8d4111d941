import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsResilience
import StreamsTesting
import Testing

/// The identity a request gives resilience events: its method and origin, nothing else.
@Suite("ResilienceRequestIdentity from a URLRequest")
struct RequestIdentityTests {
    @Test func aRequestIsNamedByItsMethodAndOriginWithoutCredentialsPathOrQuery() throws {
        var post = URLRequest(url: try #require(URL(string: "https://user:secret@Pay.Example.com/charges?card=4242#x")))
        post.httpMethod = "post"
        let identity = ResilienceRequestIdentity(post)
        #expect(identity.method == "POST")
        #expect(identity.origin == "https://pay.example.com:443")
        let get = ResilienceRequestIdentity(URLRequest(url: try #require(URL(string: "http://localhost:8080/x?token=1"))))
        #expect("\(get)" == "GET http://localhost:8080")
    }

    @Test func resilientForARequestTellsItsIdentityAndItsRepeatSafety() throws {
        let scheduler = TestScheduler()
        var post = URLRequest(url: try #require(URL(string: "https://pay.example.com/charges?card=4242")))
        post.httpMethod = "POST"
        let contexts = Locked<[ResilienceEventContext]>([])
        let events = ResilienceEvents { _, context in contexts.withLock { $0.append(context) } }
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate), attemptTimeout: .seconds(1))
        let pipeline = ResiliencePipeline(policy, name: "payments", events: events)
        let sends = Locked(0)
        let subscriber = TestSubscriber<Int, ResilienceError<NetworkError>>()
        Deferred { () -> AnyPublisher<Int, NetworkError> in
            sends.withLock { $0 += 1 }
            return Empty(completeImmediately: false).eraseToAnyPublisher()
        }
        .resilient(pipeline, for: post, scheduler: scheduler)
        .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        // A POST without an idempotency key is not sent again after its attempt timed out.
        #expect(sends.withLock { $0 } == 1)
        let told = contexts.withLock { $0 }
        #expect(!told.isEmpty)
        #expect(
            told.allSatisfy {
                $0
                    == ResilienceEventContext(
                        operation: "payments", attempt: 1,
                        request: ResilienceRequestIdentity(method: "POST", origin: "https://pay.example.com:443"))
            })
    }
}
