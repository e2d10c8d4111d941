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
/// A key's policy can be replaced while the program runs (``replacePolicy(_:for:)``): calls that
/// start afterwards get a pipeline of the new policy, calls in flight keep theirs. Look the
/// pipeline up when each call starts (`resilient(_:key:scheduler:)`, or
/// `registry.pipeline(for:)` in the call) for calls to follow a replacement.
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
    private let table: LockedState<Table>

    /// Each key's pipeline and replaced policy, behind one lock.
    private struct Table {
        var pipelines: [String: ResiliencePipeline] = [:]
        /// The policies that replaced ``ResilienceRegistry/policy`` for a key.
        var policies: [String: ResiliencePolicy] = [:]
        /// Bumped by each replacement of a key's policy, so that a pipeline made from a policy
        /// replaced meanwhile is not stored.
        var versions: [String: UInt64] = [:]
    }

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
        table = LockedState(Table())
    }

    /// The pipeline of `key`, made from the policy the first time the key is asked for.
    ///
    /// ```swift
    /// let pipeline = registry.pipeline(for: "api.example.com")
    /// ```
    public func pipeline(for key: String) -> ResiliencePipeline {
        let defaultPolicy = policy
        while true {
            let (existing, keyPolicy, version) = table.withLock { table in
                (table.pipelines[key], table.policies[key] ?? defaultPolicy, table.versions[key])
            }
            if let existing { return existing }
            // Made outside the lock: the events closure is the caller's code. When two threads
            // race for a new key, the first to store its pipeline wins and both return it; a
            // pipeline of a policy replaced meanwhile is made again.
            let made = ResiliencePipeline(keyPolicy, name: key, events: makeEvents(key))
            let stored: ResiliencePipeline? = table.withLock { table in
                if let stored = table.pipelines[key] { return stored }
                guard table.versions[key] == version else { return nil }
                table.pipelines[key] = made
                return made
            }
            if let stored { return stored }
        }
    }

    /// The policy of `key`: the one that replaced the registry's ``policy`` for it, or that one.
    ///
    /// ```swift
    /// let retries = registry.policy(for: "api.example.com").retry?.maxRetries
    /// ```
    public func policy(for key: String) -> ResiliencePolicy {
        let defaultPolicy = policy
        return table.withLock { $0.policies[key] ?? defaultPolicy }
    }

    /// Replaces the policy of `key` while the program runs: the calls that start afterwards (that
    /// ask ``pipeline(for:)`` from now on) get a pipeline of `policy`, and the calls in flight keep
    /// the pipeline they hold. The shared objects whose settings are unchanged carry over with
    /// their state (an open circuit stays open, a spent budget stays spent); a stage whose
    /// settings changed starts afresh. The key keeps its events.
    ///
    /// ```swift
    /// var tuned = registry.policy(for: "api.example.com")
    /// tuned.retry?.maxRetries = 1                 // the backend is struggling: retry less
    /// registry.replacePolicy(tuned, for: "api.example.com")
    /// ```
    public func replacePolicy(_ policy: ResiliencePolicy, for key: String) {
        let (version, first) = table.withLock { table -> (UInt64, ResiliencePipeline?) in
            table.policies[key] = policy
            let version = (table.versions[key] ?? 0) &+ 1
            table.versions[key] = version
            return (version, table.pipelines[key])
        }
        // The new pipeline is made outside the lock (its stages are made, a debug build lints the
        // policy); it replaces the one it was made from. A later replacement of the key makes its
        // own; a pipeline stored meanwhile is carried over in turn.
        var previous = first
        while let current = previous {
            let made = ResiliencePipeline(policy, name: current.name, events: current.events, carryingOver: current)
            previous = table.withLock { table -> ResiliencePipeline? in
                guard table.versions[key] == version, let stored = table.pipelines[key] else { return nil }
                guard stored === current else { return stored }
                table.pipelines[key] = made
                return nil
            }
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
        table.withLock { $0.pipelines.keys.sorted() }
    }

    /// Forgets the pipeline of `key`: publishers that already hold it keep using it; the next
    /// ``pipeline(for:)`` makes a new one (of the key's replaced policy, if it has one).
    ///
    /// ```swift
    /// registry.removePipeline(for: "old.example.com")
    /// ```
    public func removePipeline(for key: String) {
        _ = table.withLock { $0.pipelines.removeValue(forKey: key) }
    }
}
