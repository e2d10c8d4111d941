// The client of Benchmarks/client-cost: what an app's networking and view-model layer writes
// with Combine, compiled against Streams and against OpenCombine, identical but for its import.
// It uses only operators both have: OpenCombine 0.14 has no combineLatest and no merge, so the
// form's fields are zipped and the notifications flattened.
#if STREAMS
import Streams
#else
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#endif
import Dispatch
import Foundation

// MARK: Model

public struct User: Codable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var email: String
}

public struct SearchResult: Codable, Equatable, Sendable {
    public var query: String
    public var users: [User]
}

public enum APIError: Error, Equatable {
    case offline
    case server(Int)
    case decoding
    case invalidInput(String)
}

// MARK: A fake backend

/// Answers requests from memory, on a queue, as a network would: each call a `Deferred` `Future`.
public final class Backend: @unchecked Sendable {
    let queue = DispatchQueue(label: "backend")
    var users: [User] = (0..<50).map { User(id: $0, name: "user \($0)", email: "user\($0)@example.com") }
    var failuresLeft = 0

    public init() {}

    func respond<T: Encodable>(_ value: T) -> AnyPublisher<Data, APIError> {
        Deferred {
            Future<Data, APIError> { promise in
                self.queue.async {
                    if self.failuresLeft > 0 {
                        self.failuresLeft -= 1
                        promise(.failure(.offline))
                    } else if let data = try? JSONEncoder().encode(value) {
                        promise(.success(data))
                    } else {
                        promise(.failure(.server(500)))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }

    public func search(_ query: String) -> AnyPublisher<Data, APIError> {
        respond(SearchResult(query: query, users: users.filter { $0.name.contains(query) }))
    }

    public func user(_ id: Int) -> AnyPublisher<Data, APIError> {
        respond(users.first { $0.id == id })
    }
}

// MARK: The API layer

public struct API {
    let backend: Backend
    let decoder = JSONDecoder()

    public init(backend: Backend) { self.backend = backend }

    public func search(_ query: String) -> AnyPublisher<[User], APIError> {
        backend.search(query)
            .tryMap { data -> Data in
                guard !data.isEmpty else { throw APIError.server(204) }
                return data
            }
            .decode(type: SearchResult.self, decoder: decoder)
            .map(\.users)
            .mapError { error in (error as? APIError) ?? .decoding }
            .retry(2)
            .eraseToAnyPublisher()
    }

    public func user(_ id: Int) -> AnyPublisher<User?, APIError> {
        backend.user(id)
            .decode(type: User?.self, decoder: decoder)
            .mapError { _ in APIError.decoding }
            .catch { error -> AnyPublisher<User?, APIError> in
                error == .decoding ? Just(nil).setFailureType(to: APIError.self).eraseToAnyPublisher()
                    : Fail(error: error).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }
}

// MARK: View models

public final class SearchViewModel: ObservableObject {
    @Published public var query = ""
    @Published public private(set) var results: [User] = []
    @Published public private(set) var isLoading = false
    @Published public private(set) var message: String?
    private var cancellables = Set<AnyCancellable>()

    public init(api: API, scheduler: DispatchQueue) {
        $query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .removeDuplicates()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .handleEvents(receiveOutput: { [weak self] _ in self?.isLoading = true })
            .map { query -> AnyPublisher<[User], Never> in
                guard query.count >= 2 else { return Just([]).eraseToAnyPublisher() }
                return api.search(query)
                    .catch { [weak self] error -> Just<[User]> in
                        self?.message = Self.describe(error)
                        return Just([])
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: scheduler)
            .sink { [weak self] users in
                self?.isLoading = false
                self?.results = users
            }
            .store(in: &cancellables)
    }

    static func describe(_ error: APIError) -> String {
        switch error {
        case .offline: "You are offline."
        case .server(let status): "The server answered \(status)."
        case .decoding: "The answer could not be read."
        case .invalidInput(let field): "Check \(field)."
        }
    }
}

public final class SignUpViewModel: ObservableObject {
    @Published public var name = ""
    @Published public var email = ""
    @Published public var password = ""
    @Published public var repeatedPassword = ""
    @Published public var acceptsTerms = false
    @Published public private(set) var canSubmit = false
    @Published public private(set) var problems: [String] = []
    private var cancellables = Set<AnyCancellable>()

    public init() {
        let nameValid = $name.map { $0.count >= 2 }
        let emailValid = $email.map { $0.contains("@") && $0.contains(".") }
        let passwordsValid = Publishers.Zip($password, $repeatedPassword)
            .map { password, repeated in password.count >= 8 && password == repeated }
        Publishers.Zip4(nameValid, emailValid, passwordsValid, $acceptsTerms)
            .map { $0 && $1 && $2 && $3 }
            .removeDuplicates()
            .assign(to: \.canSubmit, on: self)
            .store(in: &cancellables)
        Publishers.Zip3($name, $email, $password)
            .map { name, email, password -> [String] in
                var problems: [String] = []
                if name.count < 2 { problems.append("name") }
                if !email.contains("@") { problems.append("email") }
                if password.count < 8 { problems.append("password") }
                return problems
            }
            .sink { [weak self] in self?.problems = $0 }
            .store(in: &cancellables)
    }
}

public final class ProfileViewModel: ObservableObject {
    @Published public private(set) var user: User?
    @Published public private(set) var error: APIError?
    private let api: API
    private let reload = PassthroughSubject<Int, Never>()
    private var cancellables = Set<AnyCancellable>()

    public init(api: API, scheduler: DispatchQueue) {
        self.api = api
        reload
            .flatMap(maxPublishers: .max(1)) { id in
                api.user(id)
                    .map { $0 as User? }
                    .catch { [weak self] error -> Empty<User?, Never> in
                        self?.error = error
                        return Empty()
                    }
            }
            .compactMap { $0 }
            .receive(on: scheduler)
            .sink { [weak self] in self?.user = $0 }
            .store(in: &cancellables)
    }

    public func load(_ id: Int) { reload.send(id) }
}

// MARK: A feed with pagination and merging

public final class FeedModel {
    public let pages = CurrentValueSubject<[Int], Never>([])
    private let nextPage = PassthroughSubject<Void, Never>()
    private var cancellables = Set<AnyCancellable>()

    public init(api: API) {
        nextPage
            .scan(0) { page, _ in page + 1 }
            .flatMap { page in
                api.search("user \(page)")
                    .map { $0.map(\.id) }
                    .replaceError(with: [])
            }
            .scan([Int]()) { $0 + $1 }
            .sink { [pages] in pages.send($0) }
            .store(in: &cancellables)
    }

    public func more() { nextPage.send(()) }
}

public func notifications(from sources: [PassthroughSubject<String, Never>]) -> AnyPublisher<[String], Never> {
    sources.publisher
        .flatMap { $0 }
        .filter { !$0.isEmpty }
        .map { $0.uppercased() }
        .collect(3)
        .prefix(10)
        .eraseToAnyPublisher()
}

public func zipped(_ a: [Int], _ b: [String]) -> [String] {
    var out: [String] = []
    _ = Publishers.Zip(a.publisher, b.publisher)
        .map { "\($0)-\($1)" }
        .reduce([String]()) { $0 + [$1] }
        .sink { out = $0 }
    return out
}

// MARK: The run

/// Exercises every model once, so that nothing is dead-stripped: returns a checksum.
public func run() -> Int {
    let backend = Backend()
    let api = API(backend: backend)
    let queue = DispatchQueue(label: "main")
    let search = SearchViewModel(api: api, scheduler: queue)
    search.query = "user 1"
    let signUp = SignUpViewModel()
    signUp.name = "Ada"
    signUp.email = "ada@example.com"
    signUp.password = "correct horse"
    signUp.repeatedPassword = "correct horse"
    signUp.acceptsTerms = true
    let profile = ProfileViewModel(api: api, scheduler: queue)
    profile.load(3)
    let feed = FeedModel(api: api)
    feed.more()
    let sources = (0..<3).map { _ in PassthroughSubject<String, Never>() }
    var received: [[String]] = []
    let cancellable = notifications(from: sources).sink { received.append($0) }
    for (index, source) in sources.enumerated() { source.send("note \(index)") }
    cancellable.cancel()
    Thread.sleep(forTimeInterval: 0.5)
    queue.sync {}
    return (signUp.canSubmit ? 1 : 0) + search.results.count + received.count + zipped([1, 2], ["a", "b"]).count
        + (profile.user?.id ?? 0) + feed.pages.value.count
}
