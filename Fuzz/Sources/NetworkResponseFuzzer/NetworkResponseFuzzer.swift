import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking

// Input: two bytes of status code (taken modulo 600), then the `Date` header value, the
// `Retry-After` header value and the body, separated by NUL bytes. Runs the response
// validation and the decoding, reads every description, and checks the results: a 2xx passes
// the body through; only 400 and 422 are validation errors; every error keeps its status and carries a wait that is never
// negative; a Date header of digits is not a date (the hint is then measured from the
// client's clock); the decoding failure is a NetworkError.decoding.

struct Payload: Decodable {
    let isAvailable: Bool
    let name: String?
    let tags: [String]?
    let limits: [String: Double]?
}

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("absurd result: \(message())") }
}

func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
}

let url = URL(string: "http://fuzz.test/")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard input.count >= 2 else { return 0 }
    let status = (Int(input[0]) << 8 | Int(input[1])) % 600
    let parts = input.dropFirst(2).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    func text(_ index: Int) -> String? {
        index < parts.count ? String(decoding: parts[index], as: UTF8.self) : nil
    }
    let dateHeader = text(0)
    let retryAfterHeader = text(1)
    let body = parts.count > 2 ? Data(parts[2]) : Data()
    var headers: [String: String] = [:]
    if let dateHeader, !dateHeader.isEmpty { headers["Date"] = dateHeader }
    if let retryAfterHeader, !retryAfterHeader.isEmpty { headers["Retry-After"] = retryAfterHeader }
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    else { return 0 }
    // What the response carries after Foundation has stored it.
    let storedDate = response.value(forHTTPHeaderField: "Date")
    let storedRetryAfter = response.value(forHTTPHeaderField: "Retry-After")

    let before = Date()
    let result = NetworkError.validate(data: body, response: response)
    let after = Date()
    switch result {
    case .success(let passed):
        check((200..<300).contains(status), "status \(status) passed validation")
        check(passed == body, "the body changed")
        decode(passed)
    case .failure(let error):
        check(!(200..<300).contains(status), "status \(status) failed validation")
        _ = (
            error.description, error.errorDescription, error.category, error.localizedDescription, error.presentationTitle,
            error.origin
        )
        guard let failure = error.errorResponse else {
            check(false, "unexpected error \(error)")
            return 0
        }
        check(failure.status == status, "status \(status) read as \(failure.status)")
        if case .validation = error { check(status == 400 || status == 422, "status \(status) read as a validation error") }
        guard let wait = failure.retryAfter else { return 0 }
        check(wait >= .zero && wait <= RetryAfter.unbounded, "wait \(wait)")
        // A Date header that is only digits (and blanks) is not a date: the hint is then
        // measured from the client's clock.
        let digitsOnly = storedDate.map {
            !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x20 || $0 == 0x09 }
        }
        if digitsOnly ?? true, let value = storedRetryAfter,
            let early = RetryAfter.parse(value, now: before), let late = RetryAfter.parse(value, now: after)
        {
            check(
                wait <= early && wait >= late,
                "hint \(value.debugDescription) read as \(wait) with Date \(storedDate.debugDescription)")
        }
    }
    return 0
}

/// Decodes `body` the way `decode(type:decoder:)` does in a pipeline, synchronously.
func decode(_ body: Data) {
    var outcome: Subscribers.Completion<NetworkError>?
    var values = 0
    let cancellable = Just(body).setFailureType(to: NetworkError.self)
        .decode(type: Payload.self, decoder: JSONDecoder())
        .sink(receiveCompletion: { outcome = $0 }, receiveValue: { _ in values += 1 })
    cancellable.cancel()
    switch outcome {
    case .finished:
        check(values == 1, "finished after \(values) values")
    case .failure(let error):
        check(values == 0, "failed after a value")
        guard case .decoding = error else { check(false, "decoding failed with \(error)"); return }
        _ = (error.description, error.errorDescription, error.category)
    case nil:
        check(false, "no completion")
    }
}
