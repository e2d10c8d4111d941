import Dispatch
import Foundation
import StreamsNetworking
import StreamsRecovery
import Synchronization

/// The typed-client demo: each call of ``CatalogClient`` against a catalogue server, with what
/// came back and, for a failure, what StreamsRecovery's default handler would show.
///
/// ```swift
/// let passed = CatalogDemo(baseURL: server.baseURL).run()
/// ```
public struct CatalogDemo: Sendable {
    /// The server's base URL.
    public let baseURL: URL
    /// Where each line goes.
    public let print: @Sendable (String) -> Void

    /// Makes the demo.
    ///
    /// ```swift
    /// let demo = CatalogDemo(baseURL: api)
    /// ```
    public init(baseURL: URL, print: @escaping @Sendable (String) -> Void = { Swift.print($0) }) {
        self.baseURL = baseURL
        self.print = print
    }

    /// The first result of `publisher`, waited for.
    public static func result<P: Publisher>(of publisher: P) -> Result<P.Output, P.Failure>?
    where P.Output: Sendable, P.Failure: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<P.Output, P.Failure>?>(nil)
        let cancellable = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { result.withLock { $0 = $0 ?? .failure(error) } }
                done.signal()
            },
            receiveValue: { value in result.withLock { $0 = $0 ?? .success(value) } })
        _ = done.wait(timeout: .now() + 60)
        cancellable.cancel()
        return result.withLock { $0 }
    }

    /// Runs every call, prints what happened, and returns whether each did what it should.
    public func run() -> Bool {
        let skipped = Mutex(0)
        let client = CatalogClient(
            baseURL: baseURL, scheduler: DispatchQueue(label: "retries"),
            onDecodingErrors: { digest in skipped.withLock { $0 += digest.errors.count } })
        let handler = DefaultErrorHandler()
        var passed = true
        func expect(_ condition: Bool, _ line: String) {
            print((condition ? "ok    " : "FAIL  ") + line)
            passed = passed && condition
        }
        func shown(_ error: NetworkError) -> String {
            "\(handler.defaultPresentation(for: error))"
        }

        if case .success(let page)? = Self.result(of: client.catalog()) {
            let names = page.value.products.map(\.name)
            expect(
                names == ["Tea", "Jam"] && page.header("ETag") == "\"v1\"" && skipped.withLock { $0 } == 1,
                "GET /products: \(names), ETag \(page.header("ETag") ?? "none"), \(skipped.withLock { $0 }) product skipped")
        } else {
            expect(false, "GET /products failed")
        }
        if case .success(let product)? = Self.result(of: client.product(id: 1)) {
            expect(product == Product(id: 1, name: "Tea"), "GET /products/1: \(product.name)")
        }
        if case .failure(let error)? = Self.result(of: client.product(id: 9)) {
            expect(error.status == 404 && shown(error).hasPrefix("Not Found"), "GET /products/9: \(shown(error))")
        }
        if case .success(let page)? = Self.result(of: client.catalog(at: "busy")) {
            expect(page.value.products.isEmpty, "GET /busy: answered after waiting for Retry-After")
        }
        if case .failure(let error)? = Self.result(of: client.catalog(at: "limited")) {
            expect(
                error.retryAfter == .seconds(120) && shown(error).contains("in 2 minutes"),
                "GET /limited: not retried (the wait is beyond the limit): \(shown(error))")
        }
        if case .failure(let error)? = Self.result(of: client.catalog(at: "broken")) {
            expect(shown(error).hasPrefix("Unexpected Response"), "GET /broken: \(shown(error))")
        }
        if case .failure(let error)? = Self.result(of: client.catalog(at: "crash")) {
            expect(
                error.errorResponse?.reason == "database unavailable" && shown(error).hasPrefix("Server Error"),
                "GET /crash: retried, then \(shown(error))")
        }
        if case .failure(.validation(let failure))? = Self.result(of: client.place(NewOrder(productID: 1, quantity: 0))) {
            let fields = failure.fieldErrors.map { "\($0.field ?? "?") \($0.message)" }
            expect(fields == ["/quantity must be at least 1"], "POST /orders with quantity 0: \(fields)")
        }
        let first = Self.result(of: client.place(NewOrder(productID: 1, quantity: 2), idempotencyKey: "demo-1"))
        let again = Self.result(of: client.place(NewOrder(productID: 1, quantity: 2), idempotencyKey: "demo-1"))
        if case .success(let confirmation)? = first, case .success(let repeated)? = again {
            expect(confirmation == repeated, "POST /orders twice with one key: order \(confirmation.orderID) both times")
        } else {
            expect(false, "POST /orders failed")
        }
        return passed
    }
}
