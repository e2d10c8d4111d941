import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsDecoding
import StreamsNetworking

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

/// A typed client of the catalogue API, written with nothing but StreamsNetworking: no
/// `mapError`, no conformance of its own, no header or body parsing. Every method sends a
/// `NetworkError` on failure, retried by HTTP's rules (a POST only because it carries an
/// idempotency key) and ready for StreamsRecovery's default handler.
///
/// ```swift
/// let client = CatalogClient(baseURL: api, scheduler: DispatchQueue.main)
/// client.catalog().sink(receiveCompletion: { _ in }, receiveValue: { page in show(page.value.products) })
/// ```
public struct CatalogClient<S: Scheduler>: Sendable where S: Sendable {
    /// The API's base URL.
    public let baseURL: URL
    /// The session requests go through.
    public let session: URLSession
    /// Where retries wait.
    public let scheduler: S
    /// The backoff between retries.
    public let backoff: Backoff
    /// Told what `@Resilient` properties recovered from, for logging.
    public let onDecodingErrors: @Sendable (ErrorDigest) -> Void

    /// Makes a client.
    ///
    /// ```swift
    /// let client = CatalogClient(baseURL: api, scheduler: DispatchQueue(label: "retries"))
    /// ```
    public init(
        baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral), scheduler: S,
        backoff: Backoff = .exponential(initial: .milliseconds(50), maxDelay: .seconds(1)),
        onDecodingErrors: @escaping @Sendable (ErrorDigest) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.session = session
        self.scheduler = scheduler
        self.backoff = backoff
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
        .eraseToAnyPublisher()
    }
}
