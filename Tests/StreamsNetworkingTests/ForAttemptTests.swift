import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import StreamsResilience
import Testing

/// A request as one attempt sends it: its number in a header, its timeout within the attempt's.
@Suite("URLRequest.forAttempt")
struct ForAttemptTests {
    @Test func theAttemptNumberGoesInTheNamedHeaderAndTheTimeoutShrinksToTheTimeLeft() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/items")))
        request.timeoutInterval = 60
        let sent = request.forAttempt(ResilienceAttempt(number: 2, hedge: 0, timeLeft: .milliseconds(2500)), header: "X-Attempt")
        #expect(sent.value(forHTTPHeaderField: "X-Attempt") == "2")
        #expect(sent.timeoutInterval == 2.5)
        let longer = request.forAttempt(ResilienceAttempt(number: 1, hedge: 0, timeLeft: .seconds(600)))
        #expect(longer.timeoutInterval == 60)
        #expect(longer.value(forHTTPHeaderField: "X-Attempt") == nil)
    }
}
