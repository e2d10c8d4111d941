import Foundation
import Streams

/// Per-dependency shared state for one ``ResiliencePolicy``: a ``ResiliencePipeline`` (breaker,
/// budget, limiters) for each key, made the first time the key is asked for, so that one failing
/// host opens its own circuit and spends its own budget without tripping another.
///
/// Keys are yours to choose: a host, a host and port, a service name. Pipelines live as long as
/// the registry (or until ``removePipeline(for:)``). Thread-safe: any thread may ask for any key;
/// two threads asking for a new key at once get the same pipeline.
///
/// ```swift
/// let registry = ResilienceRegistry(policy: .standardHTTP) { host in
///     ResilienceEvents { event in logger.warning("\(host): \(event)") }
/// }
/// func get(_ url: URL) -> AnyPublisher<Data, ResilienceError<URLError>> {
///     Deferred { session.dataTaskPublisher(for: url).map(\.data) }
///         .resilient(registry.pipeline(forHostOf: url), scheduler: DispatchQueue.main)
///         .eraseToAnyPublisher()
/// }
/// ```
public final class ResilienceRegistry: Sendable {
    /// The policy each key's pipeline is made from.
    public let policy: ResiliencePolicy

    private let makeEvents: @Sendable (String) -> ResilienceEvents
    private let pipelines: LockedState<[String: ResiliencePipeline]>

    /// Makes an empty registry whose pipelines follow `policy`; `events` gives each new key's
    /// pipeline its observer (it is called outside the registry's lock, once per new key). Each
    /// pipeline is named by its key, which its events tell as their operation.
    ///
    /// ```swift
    /// let registry = ResilienceRegistry(policy: .standardHTTP)
    /// ```
    public init(
        policy: ResiliencePolicy, events: @escaping @Sendable (_ key: String) -> ResilienceEvents = { _ in .none }
    ) {
        self.policy = policy
        makeEvents = events
        pipelines = LockedState([:])
    }

    /// The pipeline of `key`, made from the policy the first time the key is asked for.
    ///
    /// ```swift
    /// let pipeline = registry.pipeline(for: "api.example.com")
    /// ```
    public func pipeline(for key: String) -> ResiliencePipeline {
        if let existing = pipelines.withLock({ $0[key] }) { return existing }
        // Made outside the lock: the events closure is the caller's code. When two threads race
        // for a new key, the first to store its pipeline wins and both return it.
        let made = ResiliencePipeline(policy, name: key, events: makeEvents(key))
        return pipelines.withLock { table in
            if let stored = table[key] { return stored }
            table[key] = made
            return made
        }
    }

    /// The pipeline of the host (and port, when the URL names one) of `url`; a URL without a
    /// host shares the key "".
    ///
    /// ```swift
    /// let pipeline = registry.pipeline(forHostOf: URL(string: "https://api.example.com/users")!)
    /// ```
    public func pipeline(forHostOf url: URL) -> ResiliencePipeline {
        let host = url.host ?? ""
        return pipeline(for: url.port.map { "\(host):\($0)" } ?? host)
    }

    /// The keys that have a pipeline now, sorted.
    ///
    /// ```swift
    /// for key in registry.keys { print(key, registry.pipeline(for: key).circuitBreaker?.currentState as Any) }
    /// ```
    public var keys: [String] {
        pipelines.withLock { $0.keys.sorted() }
    }

    /// Forgets the pipeline of `key`: publishers that already hold it keep using it; the next
    /// ``pipeline(for:)`` makes a new one.
    ///
    /// ```swift
    /// registry.removePipeline(for: "old.example.com")
    /// ```
    public func removePipeline(for key: String) {
        _ = pipelines.withLock { $0.removeValue(forKey: key) }
    }
}
