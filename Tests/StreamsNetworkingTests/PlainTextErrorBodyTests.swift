// A short sentence in a text/plain error body, as many servers send one, over loopback.
#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import Testing

@Suite("text/plain error bodies")
struct PlainTextErrorBodyTests {
    /// The server's reason for a 400 whose body is `body`, of type `contentType`.
    static func reason(_ body: String, contentType: String? = "text/plain", errorBody: ErrorBodyParser? = nil) throws -> String? {
        let headers = contentType.map { ["Content-Type": $0] } ?? [:]
        let error = try HTTPErrorBodyTests.failure(400, headers, body: body, errorBody: errorBody)
        guard case .validation(let failure) = error else {
            Issue.record("expected validation, got \(String(describing: error))")
            return nil
        }
        return failure.reason
    }

    @Test func aShortSentenceIsTheReason() throws {
        #expect(try Self.reason("That name is taken.") == "That name is taken.")
        #expect(try Self.reason("That name is taken.\r\n", contentType: "text/plain; charset=utf-8") == "That name is taken.")
        #expect(
            try Self.reason("Der Name ist vergeben.", contentType: "Text/Plain; Charset=\"UTF-8\"") == "Der Name ist vergeben.")
    }

    @Test func controlCharactersAreRemovedAndLineBreaksBecomeSpaces() throws {
        #expect(try Self.reason("That name\r\n\tis taken.\u{7}\u{1B}[31m") == "That name is taken.[31m")
        #expect(try Self.reason("Name\u{202E}moc.live\u{200B} taken") == "Namemoc.live taken")
        #expect(try Self.reason("\u{0}\u{1}\r\n") == nil)
    }

    @Test func aLongBodyIsNotRead() throws {
        let atLimit = String(repeating: "a", count: ProblemDetails.plainTextLimit)
        #expect(try Self.reason(atLimit) == atLimit)
        #expect(try Self.reason(atLimit + "a") == nil)
    }

    @Test func htmlIsNeverTheReason() throws {
        #expect(try Self.reason("<html><body><h1>400 Bad Request</h1></body></html>") == nil)
        #expect(try Self.reason("Bad request<br>try again") == nil)
        #expect(try Self.reason("Bad request", contentType: "text/html") == nil)
        #expect(try Self.reason("Bad request", contentType: nil) == nil)
        #expect(try Self.reason("Bad request", contentType: "application/octet-stream") == nil)
    }

    @Test func aBodyThatDoesNotDecodeInItsCharsetIsNotRead() {
        let latin1 = Data([0x4E, 0xE4, 0x6D, 0x65])  // "Näme" in ISO-8859-1: not UTF-8
        #expect(ProblemDetails.parse(latin1, contentType: "text/plain") == nil)
        #expect(ProblemDetails.parse(latin1, contentType: "text/plain; charset=utf-8") == nil)
        #expect(ProblemDetails.parse(latin1, contentType: "text/plain; charset=iso-8859-1")?.reason == "Näme")
        #expect(ProblemDetails.parse(Data("Name".utf8), contentType: "text/plain; charset=shift_jis") == nil)
        #expect(ProblemDetails.parse(Data("Name".utf8), contentType: "text/plain; charset=us-ascii")?.reason == "Name")
    }

    @Test func jsonAndTheCallersParserComeFirst() throws {
        #expect(try Self.reason(#"{"message":"known"}"#) == "known")
        #expect(try Self.reason("plain words") { _, _ in ProblemDetails(detail: "mine") } == "mine")
        #expect(try Self.reason("plain words") { _, _ in nil } == "plain words")
    }
}
#endif
