import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsDecoding
import StreamsNetworking
import StreamsRecovery
import StreamsResilience

/// A product of the catalogue.
public struct Product: Decodable, Sendable, Equatable {
    /// Its identifier.
    public let id: Int
    /// Its name.
    public let name: String
}

/// The catalogue: a product that cannot be decoded is skipped, not fatal.
public struct Catalog: Decodable, Sendable {
    /// The products that could be decoded.
    @Resilient public var products: [Product]
}

/// An order to place.
public struct NewOrder: Encodable, Sendable {
    /// The product ordered.
    public let productID: Int
    /// How many.
    public let quantity: Int

    /// Makes an order.
    ///
    /// ```swift
    /// let order = NewOrder(productID: 1, quantity: 2)
    /// ```
    public init(productID: Int, quantity: Int) {
        self.productID = productID
        self.quantity = quantity
    }
}

/// The server's confirmation of an order.
public struct OrderConfirmation: Decodable, Sendable, Equatable {
    /// The order's number; the same for a repeated request.
    public let orderID: Int
}

/// A typed client of the catalogue API, written with nothing but StreamsNetworking and
/// StreamsRecovery: no `mapError`, no conformance of its own, no header or body parsing. Every
/// method is one pipeline, `request -> validate -> decode -> retry -> recover(through:)`:
/// failures are `NetworkError`s, retried by HTTP's rules (a POST only because it carries an
/// idempotency key), and what the retry gives up on is presented through `errorHandlers` to
/// `presenter`, which acts on the option chosen ("Try Again" sends one more request, "Cancel"
/// ends the stream quietly, "OK" lets the error through). ``account()`` needs a bearer token:
/// it goes through ``authenticator``, which refreshes an expired token once and sends the
/// request again.
///
/// ```swift
/// let client = CatalogClient(
///     baseURL: api, scheduler: DispatchQueue.main, credentials: tokens,
///     errorHandlers: ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { session.end() })),
///     presenter: { presentation in alert.show(presentation) })   // publishes the tapped option
/// client.catalog().sink(receiveCompletion: { _ in }, receiveValue: { page in show(page.value.products) })
/// ```
public struct CatalogClient<S: Scheduler>: Sendable where S: Sendable {
    /// Shows a presentation to the user and publishes the option chosen; a publisher that ends
    /// without one lets the error through.
    public typealias Presenter = @Sendable (ErrorPresentation) -> AnyPublisher<RecoveryOption, Never>

    /// The API's base URL.
    public let baseURL: URL
    /// The session requests go through.
    public let session: URLSession
    /// Where retries wait.
    public let scheduler: S
    /// The backoff between retries.
    public let backoff: Backoff
    /// Sends the requests that need a bearer token, and renews the token on a 401.
    public let authenticator: Authenticator
    /// Decides how each failure is presented.
    public let errorHandlers: ErrorHandlerChain
    /// Where a failure is presented, and the user's choice comes from.
    public let presenter: Presenter
    /// Told what `@Resilient` properties recovered from, for logging.
    public let onDecodingErrors: @Sendable (ErrorDigest) -> Void

    /// Makes a client. Without `credentials`, nobody is signed in: ``account()`` fails with
    /// `NetworkError.credentialRefreshFailed`. The default `presenter` answers nothing, so every
    /// failure comes through as it is (after the default handler's automatic "Log Out" for an
    /// error that requires it).
    ///
    /// ```swift
    /// let client = CatalogClient(baseURL: api, scheduler: DispatchQueue(label: "retries"))
    /// ```
    public init(
        baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral), scheduler: S,
        backoff: Backoff = .exponential(initial: .milliseconds(50), maxDelay: .seconds(1)),
        credentials: (any CredentialProvider)? = nil, errorHandlers: ErrorHandlerChain = ErrorHandlerChain(),
        presenter: @escaping Presenter = { _ in Empty().eraseToAnyPublisher() },
        onDecodingErrors: @escaping @Sendable (ErrorDigest) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.session = session
        self.scheduler = scheduler
        self.backoff = backoff
        let provider: any CredentialProvider = credentials ?? SignedOut()
        self.authenticator = Authenticator(session: session, origin: baseURL, provider: provider)
        self.errorHandlers = errorHandlers
        self.presenter = presenter
        self.onDecodingErrors = onDecodingErrors
    }

    /// The catalogue at `path`, with its response (for the `ETag`).
    ///
    /// ```swift
    /// let page = client.catalog()   // NetworkResponse<Catalog>
    /// ```
    public func catalog(at path: String = "products") -> AnyPublisher<NetworkResponse<Catalog>, NetworkError> {
        session.requestPublisher(for: APIRequest(.get, path), relativeTo: baseURL)
            .validateResponse()
            .decode(type: Catalog.self, decoder: JSONDecoder(), reportResilientDecodingErrors: onDecodingErrors)
            .retry(3, backoff: backoff, scheduler: scheduler)
            .recover(through: errorHandlers, presenter: presenter)
            .eraseToAnyPublisher()
    }

    /// One product.
    ///
    /// ```swift
    /// let tea = client.product(id: 1)
    /// ```
    public func product(id: Int) -> AnyPublisher<Product, NetworkError> {
        session.requestPublisher(for: APIRequest(.get, "products/\(id)"), relativeTo: baseURL)
            .validateStatus()
            .decode(type: Product.self, decoder: JSONDecoder())
            .retry(3, backoff: backoff, scheduler: scheduler)
            .recover(through: errorHandlers, presenter: presenter)
            .eraseToAnyPublisher()
    }

    /// Places `order`; the idempotency key is fixed here, so a retry cannot order twice.
    ///
    /// ```swift
    /// let confirmation = client.place(NewOrder(productID: 1, quantity: 2))
    /// ```
    public func place(_ order: NewOrder, idempotencyKey: String = UUID().uuidString) -> AnyPublisher<
        OrderConfirmation, NetworkError
    > {
        session.requestPublisher(
            for: APIRequest(.post, "orders").json(order).idempotencyKey(idempotencyKey), relativeTo: baseURL
        )
        .validateStatus()
        .decode(type: OrderConfirmation.self, decoder: JSONDecoder())
        .retry(3, backoff: backoff, scheduler: scheduler)
        .recover(through: errorHandlers, presenter: presenter)
        .eraseToAnyPublisher()
    }

    /// The signed-in customer's account, sent with the bearer token through ``authenticator``:
    /// an expired token is refreshed once, however many requests meet it at the same time, and
    /// each of them is sent again with the new one.
    ///
    /// ```swift
    /// let ada = client.account()
    /// ```
    public func account() -> AnyPublisher<Account, NetworkError> {
        let authenticator = self.authenticator
        return APIRequest(.get, "account").urlRequest(relativeTo: baseURL).publisher
            .flatMap(maxPublishers: .max(1)) { authenticator.requestPublisher(for: $0) }
            .validateStatus()
            .decode(type: Account.self, decoder: JSONDecoder())
            .retry(3, backoff: backoff, scheduler: scheduler)
            .recover(through: errorHandlers, presenter: presenter)
            .eraseToAnyPublisher()
    }
}
