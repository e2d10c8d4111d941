import Dispatch
import Foundation
import StreamsNetworking
import StreamsRecovery
import Synchronization

/// The typed-client demo: each call of ``CatalogClient`` against a catalogue server, with what
/// came back and, for a failure, what `recover(through:)` presented (through StreamsRecovery's
/// default handler) and what the scripted user chose. The account calls start with an expired
/// access token and the refresh token the catalogue server accepts, `demo-refresh-token`.
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

    /// The first result of `publisher`, waited for (at most a minute): `nil` when it finished
    /// without a value (the user chose "Cancel").
    ///
    /// ```swift
    /// if case .success(let tea)? = CatalogDemo.result(of: client.product(id: 1)) { print(tea.name) }
    /// ```
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

    /// Runs every call, prints one line for each, and returns whether each did what it should.
    public func run() -> Bool {
        let skipped = Mutex(0)
        let loggedOut = Mutex(0)
        let user = ScriptedUser()
        let errorHandlers = ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { loggedOut.withLock { $0 += 1 } }))
        let tokens = CatalogTokens(baseURL: baseURL, accessToken: "expired-token", refreshToken: "demo-refresh-token")
        let client = CatalogClient(
            baseURL: baseURL, scheduler: DispatchQueue(label: "retries"), credentials: tokens,
            errorHandlers: errorHandlers, presenter: user.present,
            onDecodingErrors: { digest in skipped.withLock { $0 += digest.errors.count } })
        var passed = true
        func expect(_ condition: Bool, _ line: String) {
            print((condition ? "ok    " : "FAIL  ") + line)
            passed = passed && condition
        }
        /// The error `result` failed with, if it did.
        func failure<T>(_ result: Result<T, NetworkError>?) -> NetworkError? {
            if case .failure(let error)? = result { error } else { nil }
        }
        /// What the user was shown since the last call.
        func shown() -> (titles: [String], text: String) {
            let presentations = user.takePresentations()
            return (presentations.map(\.title), presentations.map { "\($0)" }.joined(separator: "; "))
        }

        switch Self.result(of: client.catalog()) {
        case .success(let page)?:
            let names = page.value.products.map(\.name)
            expect(
                names == ["Tea", "Jam"] && page.header("ETag") == "\"v1\"" && skipped.withLock { $0 } == 1,
                "GET /products: \(names), ETag \(page.header("ETag") ?? "none"), \(skipped.withLock { $0 }) product skipped")
        case let other: expect(false, "GET /products: \(String(describing: other))")
        }

        switch Self.result(of: client.product(id: 1)) {
        case .success(let product)?: expect(product == Product(id: 1, name: "Tea"), "GET /products/1: \(product.name)")
        case let other: expect(false, "GET /products/1: \(String(describing: other))")
        }

        user.willChoose("OK")
        let notFound = Self.result(of: client.product(id: 9))
        let notFoundShown = shown()
        expect(
            failure(notFound)?.status == 404 && notFoundShown.titles == ["Not Found"],
            "GET /products/9: shown \(notFoundShown.text); OK lets the 404 through")

        switch Self.result(of: client.catalog(at: "busy")) {
        case .success(let page)?:
            expect(page.value.products.isEmpty && shown().titles.isEmpty, "GET /busy: answered after waiting for Retry-After")
        case let other: expect(false, "GET /busy: \(String(describing: other))")
        }

        user.willChoose("OK")
        let limited = Self.result(of: client.catalog(at: "limited"))
        let limitedShown = shown()
        expect(
            failure(limited)?.retryAfter == .seconds(120) && limitedShown.titles == ["Server Busy"]
                && limitedShown.text.contains("in 2 minutes. [OK"),
            "GET /limited: not retried (the wait is beyond the limit), shown \(limitedShown.text)")

        user.willChoose("OK")
        let broken = Self.result(of: client.catalog(at: "broken"))
        let brokenShown = shown()
        expect(
            failure(broken) != nil && brokenShown.titles == ["Unexpected Response"],
            "GET /broken: shown \(brokenShown.text)")

        user.willChoose("Try Again", "Cancel")
        let crash = Self.result(of: client.catalog(at: "crash"))
        let crashShown = shown()
        expect(
            crash == nil && crashShown.titles == ["Server Error", "Server Error"],
            "GET /crash: retried 3 times, then shown \(crashShown.text.split(separator: ";").first ?? "nothing");"
                + " the user tried again (1 request), was shown it again and cancelled: the stream ended quietly")

        user.willChoose("OK")
        let invalid = Self.result(of: client.place(NewOrder(productID: 1, quantity: 0)))
        let invalidShown = shown()
        if case .failure(.validation(let failure))? = invalid {
            let fields = failure.fieldErrors.map { "\($0.field ?? "?") \($0.message)" }
            expect(
                fields == ["/quantity must be at least 1"] && invalidShown.titles == ["Invalid User Input"],
                "POST /orders with quantity 0: \(fields), shown \(invalidShown.text)")
        } else {
            expect(false, "POST /orders with quantity 0: \(String(describing: invalid))")
        }

        let first = Self.result(of: client.place(NewOrder(productID: 1, quantity: 2), idempotencyKey: "demo-1"))
        let again = Self.result(of: client.place(NewOrder(productID: 1, quantity: 2), idempotencyKey: "demo-1"))
        if case .success(let confirmation)? = first, case .success(let repeated)? = again {
            expect(confirmation == repeated, "POST /orders twice with one key: order \(confirmation.orderID) both times")
        } else {
            expect(false, "POST /orders twice with one key: \(String(describing: first)), \(String(describing: again))")
        }

        switch Self.result(of: client.account()) {
        case .success(let account)?:
            expect(
                account.name == "Ada" && tokens.refreshes == 1 && client.authenticator.refreshCount == 1,
                "GET /account with an expired token: 401, refreshed once, sent again: \(account.name)")
        case let other: expect(false, "GET /account with an expired token: \(String(describing: other))")
        }

        let revoked = CatalogClient(
            baseURL: baseURL, scheduler: DispatchQueue(label: "retries"),
            credentials: CatalogTokens(baseURL: baseURL, accessToken: "expired-token", refreshToken: "revoked-token"),
            errorHandlers: errorHandlers, presenter: user.present)
        let signedOut = Self.result(of: revoked.account())
        let signedOutShown = shown()
        expect(
            failure(signedOut)?.category == .requiresLogout && signedOutShown.titles.isEmpty && loggedOut.withLock { $0 } == 1,
            "GET /account with a revoked refresh token: the refresh failed; \"Log Out\" chosen without asking")
        return passed
    }
}
