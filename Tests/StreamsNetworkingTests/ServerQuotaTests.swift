import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import StreamsResilience
import Testing

@Suite("ServerQuota from the rate-limit headers")
struct ServerQuotaTests {
    static func quota(_ headers: [String: String], now: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> ServerQuota? {
        let lowered = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        return ServerQuota(now: now) { lowered[$0.lowercased()] }
    }

    @Test func readsTheSeparateHeadersOnAnyResponse() {
        #expect(
            Self.quota(["RateLimit-Limit": "5", "RateLimit-Remaining": "2", "RateLimit-Reset": "1"])
                == ServerQuota(limit: 5, remaining: 2, reset: .seconds(1)))
        #expect(
            Self.quota(["X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000030"])
                == ServerQuota(limit: 60, remaining: 0, reset: .seconds(30)))
        #expect(Self.quota(["RateLimit-Limit": "100, 100;w=60"])?.limit == 100)
    }

    @Test func readsTheTightestItemOfTheIETFField() {
        #expect(
            Self.quota(["RateLimit": #""day";r=100;t=3600, "minute";r=2;t=20"#])
                == ServerQuota(remaining: 2, reset: .seconds(20)))
        #expect(Self.quota(["RateLimit": "limit=100, remaining=0, reset=30"]) == ServerQuota(remaining: 0, reset: .seconds(30)))
    }

    @Test func measuresAnInstantAgainstTheServersDate() {
        let quota = Self.quota(["Date": "Tue, 14 Nov 2023 22:13:20 GMT", "RateLimit-Reset": "1700000010"], now: Date())
        #expect(quota?.reset == .seconds(10))
    }

    @Test func noHeadersIsNoQuota() {
        #expect(Self.quota(["Content-Type": "application/json", "RateLimit-Remaining": "many"]) == nil)
    }

    @Test func responsesAndErrorsOfferTheirQuota() throws {
        let url = URL(string: "https://api.example.com/items")!
        let response = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: nil,
                headerFields: ["RateLimit-Limit": "5", "RateLimit-Remaining": "4", "RateLimit-Reset": "1"]))
        #expect(NetworkResponse(value: Data(), response: response, request: .unspecified).serverQuota?.remaining == 4)
        let refused = try #require(
            HTTPURLResponse(
                url: url, statusCode: 429, httpVersion: nil,
                headerFields: ["RateLimit-Remaining": "0", "RateLimit-Reset": "3", "Retry-After": "3"]))
        let error = NetworkError.rateLimited(HTTPErrorResponse(status: 429, retryAfter: .seconds(3), response: refused))
        #expect(error.serverQuota == ServerQuota(remaining: 0, reset: .seconds(3)))
        #expect(NetworkError.rateLimited(HTTPErrorResponse(status: 429)).serverQuota == nil)
    }
}
