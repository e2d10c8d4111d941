import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsResilience
import StreamsTesting
import Testing

/// A response that went through a pipeline carries the report of its call.
@Suite("NetworkResponse.resilienceReport")
struct NetworkResponseReportTests {
    @Test func aResponseCarriesTheReportOfItsCall() throws {
        let scheduler = TestScheduler()
        let url = try #require(URL(string: "https://api.example.com/items"))
        let request = URLRequest(url: url)
        let http = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
        let sends = Locked(0)
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))))
        let subscriber = TestSubscriber<NetworkResponse<Data>, ResilienceError<NetworkError>>()
        Deferred { () -> AnyPublisher<NetworkResponse<Data>, NetworkError> in
            let send = sends.withLock { count in
                count += 1
                return count
            }
            guard send > 1 else {
                return Fail(error: NetworkError.transport(URLError(.cannotConnectToHost))).eraseToAnyPublisher()
            }
            return Just(NetworkResponse(value: Data(), response: http, request: SentRequest(request)))
                .setFailureType(to: NetworkError.self).eraseToAnyPublisher()
        }
        .resilientReporting(ResiliencePipeline(policy), for: request, scheduler: scheduler)
        .subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        let response = try #require(subscriber.values.first)
        let report = try #require(response.resilienceReport)
        #expect(report.attempts.map(\.number) == [1, 2])
        #expect(report.attempts.map { $0.error == nil } == [false, true])
        #expect(report.attempts.allSatisfy { $0.ended })
        #expect(report.waits.map(\.duration) == [.seconds(1)])
        #expect(response.map { $0.count }.resilienceReport?.attempts.count == 2)
    }

    @Test func aFailedCallHandsItsReportBesideTheError() throws {
        let scheduler = TestScheduler()
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/items")))
        let reports = Locked<[ResilienceReport]>([])
        let policy = ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .immediate))
        let subscriber = TestSubscriber<NetworkResponse<Data>, ResilienceError<NetworkError>>()
        Fail<NetworkResponse<Data>, NetworkError>(error: .transport(URLError(.cannotConnectToHost)))
            .resilientReporting(
                ResiliencePipeline(policy), for: request, scheduler: scheduler,
                onFailureReport: { report in reports.withLock { $0.append(report) } }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
        #expect(reports.withLock { $0 }.map { $0.attempts.count } == [2])
        #expect(reports.withLock { $0 }.first?.retryGaveUp == .exhausted)
    }
}
