import Foundation
import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// What one contract run has to work with: the upstream it drives, an object for the operator's
/// closures to capture, and a virtual-time scheduler for the time operators.
final class ContractHarness: @unchecked Sendable {
    let tracked = Tracked()
    let scheduler = TestScheduler()
    private(set) var source: (any ContractSource)?
    private var kept: [AnyCancellable] = []

    /// Makes the upstream the run drives, publishing `make(index)` for each sent index.
    func upstream<Output>(_ make: @escaping (Int) -> Output) -> ManualUpstream<Output, TestError> {
        let upstream = ManualUpstream(failure: TestError.oops, make)
        source = upstream
        return upstream
    }

    /// An upstream of the sent indices themselves.
    var ints: ManualUpstream<Int, TestError> { upstream { $0 } }

    /// An upstream of the sent indices that cannot fail.
    var infallibleInts: ManualUpstream<Int, Never> {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        source = upstream
        return upstream
    }

    /// Keeps a connection for as long as the run lasts.
    func keep(_ cancellable: any Cancellable) {
        kept.append(AnyCancellable(cancellable))
    }

    /// Runs the scheduled work that is due within a second.
    func settle() {
        scheduler.advance(by: .seconds(1))
    }
}

/// How the object an operator subscribes to its upstream reflects itself.
enum ContractReflection: Sendable {
    /// `description` and `playgroundDescription` are this name; the mirror has these children.
    case named(String, children: [String])
    /// Conforms to none of CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible.
    case notReflectable
}

/// The contract checks, named so that an entry can list the ones it still fails.
enum ContractCheck: Sendable {
    case reflection, secondSubscription, nothingAfterCancel, releasedAfterCompletion, releasedAfterCancel, reentrant
}

/// One operator in the contract suite: how to build it over a ``ContractHarness`` upstream and
/// what Combine says about it.
struct OperatorEntry: Sendable, CustomTestStringConvertible {
    let name: String
    let reflection: ContractReflection
    /// Pass-through operators hand the upstream's own subscription downstream (no duplicate
    /// check, cancel goes straight upstream).
    let passThrough: Bool
    /// Checks that this operator still fails in Streams: recorded as known issues, so that the
    /// suite stays green and the first fix shows up.
    let knownIssues: [ContractCheck]
    let build: @Sendable (ContractHarness) -> AnyPublisher<String, any Error>

    init(
        _ name: String, _ reflection: ContractReflection, passThrough: Bool = false, knownIssues: [ContractCheck] = [],
        build: @escaping @Sendable (ContractHarness) -> AnyPublisher<String, any Error>
    ) {
        self.name = name
        self.reflection = reflection
        self.passThrough = passThrough
        self.knownIssues = knownIssues
        self.build = build
    }

    var testDescription: String { name }
}

extension Publisher {
    /// The common output of every catalog entry.
    func contract() -> AnyPublisher<String, any Error> {
        map { "\($0)" }.mapError { $0 as any Error }.eraseToAnyPublisher()
    }
}

private struct Item: Codable, Equatable {
    var number: Int
}

/// Every operator Streams has. A new operator joins the contract suite with one entry here.
let operatorCatalog: [OperatorEntry] = {
    let none: [String] = []
    let reducing = ["downstream", "result", "initial", "status"]
    return [
        // Pass-through: the upstream's own subscription is handed downstream, as in Combine.
        OperatorEntry("map", .named("Map", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.map {
                _ = t; return $0 * 2
            }.contract()
        },
        OperatorEntry("filter", .named("Filter", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.filter {
                _ = t; return $0 > 0
            }.contract()
        },
        OperatorEntry("compactMap", .named("CompactMap", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.compactMap {
                _ = t; return $0
            }.contract()
        },
        OperatorEntry("mapError", .named("MapError", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.mapError {
                _ = t; return $0
            }.contract()
        },
        OperatorEntry("setFailureType", .named("SetFailureType", children: none), passThrough: true) { h in
            h.infallibleInts.setFailureType(to: TestError.self).contract()
        },
        OperatorEntry("replaceNil", .named("Map", children: none), passThrough: true) { h in
            h.upstream { Optional($0) }.replaceNil(with: 0).contract()
        },
        OperatorEntry("map(keyPath)", .named("ValueForKey", children: ["keyPath"]), passThrough: true) { h in
            h.upstream { Item(number: $0) }.map(\.number).contract()
        },
        OperatorEntry("map(keyPath, keyPath)", .named("ValueForKeys", children: ["keyPath0", "keyPath1"]), passThrough: true) {
            h in
            h.upstream { Item(number: $0) }.map(\.number, \.number).contract()
        },
        OperatorEntry(
            "map(keyPath, keyPath, keyPath)", .named("ValueForKeys", children: ["keyPath0", "keyPath1", "keyPath2"]),
            passThrough: true
        ) { h in
            h.upstream { Item(number: $0) }.map(\.number, \.number, \.number).contract()
        },
        OperatorEntry("scan", .named("Scan", children: ["downstream", "result"]), passThrough: true) { h in
            let t = h.tracked
            return h.ints.scan(0) {
                _ = t; return $0 + $1
            }.contract()
        },
        OperatorEntry("ignoreOutput", .named("IgnoreOutput", children: none), passThrough: true) { h in
            h.ints.ignoreOutput().contract()
        },
        OperatorEntry("assertNoFailure", .named("AssertNoFailure", children: ["file", "line", "prefix"]), passThrough: true) {
            h in
            h.ints.assertNoFailure().contract()
        },
        OperatorEntry("breakpoint", .named("Breakpoint", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.breakpoint(receiveOutput: { _ in
                _ = t; return false
            }).contract()
        },
        OperatorEntry("breakpointOnError", .named("Breakpoint", children: none), passThrough: true) { h in
            h.ints.breakpointOnError().contract()
        },
        // One-in, at-most-one-out.
        OperatorEntry("tryMap", .named("TryMap", children: none)) { h in
            let t = h.tracked
            return h.ints.tryMap {
                _ = t; return $0
            }.contract()
        },
        OperatorEntry("tryFilter", .named("TryFilter", children: ["downstream"])) { h in
            let t = h.tracked
            return h.ints.tryFilter {
                _ = t; return $0 > 0
            }.contract()
        },
        OperatorEntry("tryCompactMap", .named("TryCompactMap", children: ["downstream"])) { h in
            let t = h.tracked
            return h.ints.tryCompactMap {
                _ = t; return $0
            }.contract()
        },
        OperatorEntry("removeDuplicates", .named("RemoveDuplicates", children: ["downstream", "last"])) { h in
            h.ints.removeDuplicates().contract()
        },
        OperatorEntry("removeDuplicates(by:)", .named("RemoveDuplicates", children: ["downstream", "last"])) { h in
            let t = h.tracked
            return h.ints.removeDuplicates {
                _ = t; return $0 == $1
            }.contract()
        },
        OperatorEntry("tryRemoveDuplicates", .named("TryRemoveDuplicates", children: ["downstream", "last"])) { h in
            let t = h.tracked
            return h.ints.tryRemoveDuplicates {
                _ = t; return $0 == $1
            }.contract()
        },
        OperatorEntry("prefix(while:)", .named("PrefixWhile", children: ["downstream"])) { h in
            let t = h.tracked
            return h.ints.prefix {
                _ = t; return $0 < 100
            }.contract()
        },
        OperatorEntry("tryPrefix(while:)", .named("TryPrefixWhile", children: ["downstream"])) { h in
            let t = h.tracked
            return h.ints.tryPrefix {
                _ = t; return $0 < 100
            }.contract()
        },
        OperatorEntry("drop(while:)", .named("DropWhile", children: none)) { h in
            let t = h.tracked
            return h.ints.drop {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("tryDrop(while:)", .named("TryDropWhile", children: none)) { h in
            let t = h.tracked
            return h.ints.tryDrop {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("dropFirst", .named("Drop", children: none)) { h in h.ints.dropFirst(0).contract() },
        OperatorEntry("output(at:)", .named("Output", children: none)) { h in h.ints.output(at: 50).contract() },
        OperatorEntry("output(in:)", .named("Output", children: none)) { h in h.ints.output(in: 1..<50).contract() },
        OperatorEntry("prefix(_:)", .named("Output", children: none)) { h in h.ints.prefix(50).contract() },
        OperatorEntry("tryScan", .named("TryScan", children: ["downstream", "status", "result"])) { h in
            let t = h.tracked
            return h.ints.tryScan(0) {
                _ = t; return $0 + $1
            }.contract()
        },
        OperatorEntry("encode", .named("Encode", children: ["downstream", "finished", "upstreamSubscription"])) { h in
            h.upstream { Item(number: $0) }.encode(encoder: JSONEncoder()).contract()
        },
        OperatorEntry("decode", .named("Decode", children: ["downstream", "finished", "upstreamSubscription"])) { h in
            h.upstream { Data("{\"number\":\($0)}".utf8) }.decode(type: Item.self, decoder: JSONDecoder()).contract()
        },
        // Reducing.
        OperatorEntry("collect()", .named("Collect", children: ["count"])) { h in h.ints.collect().contract() },
        OperatorEntry("reduce", .named("Reduce", children: reducing)) { h in
            let t = h.tracked
            return h.ints.reduce(0) {
                _ = t; return $0 + $1
            }.contract()
        },
        OperatorEntry("tryReduce", .named("TryReduce", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryReduce(0) {
                _ = t; return $0 + $1
            }.contract()
        },
        OperatorEntry("count", .named("Count", children: reducing)) { h in h.ints.count().contract() },
        OperatorEntry("min()", .named("Comparison", children: reducing)) { h in h.ints.min().contract() },
        OperatorEntry("max(by:)", .named("Comparison", children: reducing)) { h in
            let t = h.tracked
            return h.ints.max {
                _ = t; return $0 < $1
            }.contract()
        },
        OperatorEntry("tryMin(by:)", .named("TryComparison", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryMin {
                _ = t; return $0 < $1
            }.contract()
        },
        OperatorEntry("contains(_:)", .named("Contains", children: reducing)) { h in h.ints.contains(-1).contract() },
        OperatorEntry("contains(where:)", .named("ContainsWhere", children: reducing)) { h in
            let t = h.tracked
            return h.ints.contains {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("tryContains(where:)", .named("TryContainsWhere", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryContains {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("allSatisfy", .named("AllSatisfy", children: reducing)) { h in
            let t = h.tracked
            return h.ints.allSatisfy {
                _ = t; return $0 >= 0
            }.contract()
        },
        OperatorEntry("tryAllSatisfy", .named("TryAllSatisfy", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryAllSatisfy {
                _ = t; return $0 >= 0
            }.contract()
        },
        OperatorEntry("first()", .named("First", children: reducing)) { h in h.ints.first().contract() },
        OperatorEntry("first(where:)", .named("TryFirst", children: reducing)) { h in
            let t = h.tracked
            return h.ints.first {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("tryFirst(where:)", .named("TryFirstWhere", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryFirst {
                _ = t; return $0 < 0
            }.contract()
        },
        OperatorEntry("last()", .named("Last", children: reducing)) { h in h.ints.last().contract() },
        OperatorEntry("last(where:)", .named("LastWhere", children: reducing)) { h in
            let t = h.tracked
            return h.ints.last {
                _ = t; return $0 >= 0
            }.contract()
        },
        OperatorEntry("tryLast(where:)", .named("TryLastWhere", children: reducing)) { h in
            let t = h.tracked
            return h.ints.tryLast {
                _ = t; return $0 >= 0
            }.contract()
        },
        // Other stateful operators.
        OperatorEntry(
            "collect(_:)", .named("CollectByCount", children: ["downstream", "upstreamSubscription", "buffer", "count"])
        ) { h in
            h.ints.collect(2).contract()
        },
        OperatorEntry("buffer", .named("Buffer", children: ["values", "state", "downstreamDemand", "terminal"])) { h in
            h.ints.buffer(size: 10, prefetch: .byRequest, whenFull: .dropOldest).contract()
        },
        OperatorEntry("handleEvents", .named("HandleEvents", children: none)) { h in
            let t = h.tracked
            return h.ints.handleEvents(receiveOutput: { _ in _ = t }).contract()
        },
        OperatorEntry("print", .named("Print", children: none)) { h in
            h.ints.print("contract", to: DiscardingStream()).contract()
        },
        OperatorEntry("replaceEmpty", .named("ReplaceEmpty", children: none)) { h in h.ints.replaceEmpty(with: 0).contract() },
        OperatorEntry("replaceError", .named("ReplaceError", children: none)) { h in h.ints.replaceError(with: 0).contract() },
        OperatorEntry("asResult", .named("AsResult", children: none)) { h in h.ints.asResult().contract() },
        OperatorEntry("catch", .named("Catch", children: ["downstream", "demand"])) { h in
            let t = h.tracked
            return h.ints.catch { _ in
                _ = t; return Just(0)
            }.contract()
        },
        OperatorEntry("tryCatch", .named("TryCatch", children: ["downstream", "demand"])) { h in
            let t = h.tracked
            return h.ints.tryCatch { _ in
                _ = t; return Just(0).setFailureType(to: TestError.self)
            }.contract()
        },
        OperatorEntry("append", .named("Concatenate", children: none)) { h in h.ints.append(0).contract() },
        OperatorEntry("prepend", .named("Concatenate", children: none)) { h in
            // The upstream is the suffix here: it is subscribed once the prefix has finished.
            h.ints.prepend(0).contract()
        },
        OperatorEntry("retry", .named("Retry", children: none), knownIssues: [.reflection]) { h in h.ints.retry(1).contract() },
        OperatorEntry("flatMap", .named("FlatMap", children: none)) { h in
            let t = h.tracked
            return h.ints.flatMap { value in
                _ = t; return Just(value).setFailureType(to: TestError.self)
            }.contract()
        },
        OperatorEntry("switchToLatest", .named("SwitchToLatest", children: none)) { h in
            h.upstream { Just($0).setFailureType(to: TestError.self) }.switchToLatest().contract()
        },
        OperatorEntry("merge(with:)", .named("Merge", children: none)) { h in
            h.ints.merge(with: Empty()).contract()
        },
        OperatorEntry("zip", .named("Zip", children: none)) { h in
            h.ints.zip((0..<1000).publisher.setFailureType(to: TestError.self)).contract()
        },
        OperatorEntry("combineLatest", .named("CombineLatest", children: none)) { h in
            h.ints.combineLatest(Just(0).setFailureType(to: TestError.self)).contract()
        },
        OperatorEntry("drop(untilOutputFrom:)", .named("DropUntilOutput", children: none)) { h in
            h.ints.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self)).contract()
        },
        OperatorEntry("prefix(untilOutputFrom:)", .notReflectable) { h in
            h.ints.prefix(untilOutputFrom: Empty<Int, TestError>(completeImmediately: false)).contract()
        },
        // The upstream of a multicast sees the subject's subscriber (`subscribe(_ subject:)`).
        OperatorEntry("share", .named("Subject", children: ["subject"])) { h in
            h.ints.share().contract()
        },
        OperatorEntry("makeConnectable().autoconnect()", .named("Subject", children: ["subject"])) { h in
            h.infallibleInts.makeConnectable().autoconnect().contract()
        },
        OperatorEntry("multicast", .named("Subject", children: ["subject"])) { h in
            let multicast = h.ints.multicast { PassthroughSubject<Int, TestError>() }
            h.keep(multicast.connect())
            return multicast.contract()
        },
        // Time operators, on the harness' virtual-time scheduler.
        OperatorEntry("receive(on:)", .named("ReceiveOn", children: none)) { h in h.ints.receive(on: h.scheduler).contract() },
        OperatorEntry("subscribe(on:)", .named("SubscribeOn", children: none)) { h in
            h.ints.subscribe(on: h.scheduler).contract()
        },
        OperatorEntry("delay", .notReflectable) { h in
            h.ints.delay(for: .milliseconds(10), scheduler: h.scheduler).contract()
        },
        OperatorEntry("debounce", .named("Debounce", children: ["downstream", "downstreamDemand", "currentValue"])) { h in
            h.ints.debounce(for: .milliseconds(10), scheduler: h.scheduler).contract()
        },
        OperatorEntry("throttle", .named("Throttle", children: none)) { h in
            h.ints.throttle(for: .milliseconds(10), scheduler: h.scheduler, latest: true).contract()
        },
        OperatorEntry("timeout", .named("Timeout", children: none)) { h in
            h.ints.timeout(.seconds(100), scheduler: h.scheduler).contract()
        },
        OperatorEntry("measureInterval", .named("MeasureInterval", children: none)) { h in
            h.ints.measureInterval(using: h.scheduler).contract()
        },
        // Not in Combine's reflection table: Streams' own names are pinned.
        OperatorEntry("collect(.byTime)", .named("CollectByTime", children: ["downstream", "buffered"])) { h in
            h.ints.collect(.byTime(h.scheduler, .milliseconds(10))).contract()
        },
        // Resilience: Streams' own operators.
        OperatorEntry("circuitBreaker", .named("CircuitBreaker", children: none)) { h in
            let t = h.tracked
            return h.ints.circuitBreaker(
                CircuitBreaker(),
                when: {
                    _ = t; return $0 == .oops
                }, scheduler: h.scheduler
            ).contract()
        },
        OperatorEntry("attemptTimeout", .named("AttemptTimeout", children: none)) { h in
            h.ints.attemptTimeout(.seconds(100), scheduler: h.scheduler).contract()
        },
        OperatorEntry("deadline", .named("Deadline", children: none)) { h in
            h.ints.deadline(.seconds(100), scheduler: h.scheduler).contract()
        },
        OperatorEntry("concurrencyLimiter", .named("ConcurrencyLimiter", children: none)) { h in
            h.ints.concurrencyLimiter(ConcurrencyLimiter()).contract()
        },
        OperatorEntry("hedge", .named("Hedge", children: none)) { h in
            let t = h.tracked
            return h.ints.hedge(
                maxAttempts: 3, delay: .seconds(100),
                when: {
                    _ = t; return $0 == .oops
                }, scheduler: h.scheduler
            ).contract()
        },
        OperatorEntry("retry(_:when:backoff:scheduler:) with events", .named("SelectiveRetry", children: none)) { h in
            let t = h.tracked
            return h.ints.retry(
                2, backoff: .constant(.seconds(1)), transient: true, scheduler: h.scheduler,
                events: ResilienceEvents { _ in _ = t }
            ).contract()
        },
        OperatorEntry("rateLimiter", .named("RateLimiter", children: none)) { h in
            h.ints.rateLimiter(RateLimiter(permits: 1000, per: .seconds(1)), scheduler: h.scheduler).contract()
        },
        // The policy operator with every stage on. The upstream sees the mapError that makes its
        // failure a ResilienceError, under the attempt timeout, breaker, hedging, retry, deadline
        // and limiters; the events capture the tracked object, so its release is checked too.
        OperatorEntry("resilient(_:events:scheduler:)", .named("MapError", children: none)) { h in
            let t = h.tracked
            let policy = ResiliencePolicy(
                concurrencyLimit: .init(maxConcurrent: 10, maxQueued: 10),
                rateLimit: .init(permits: 1000, per: .seconds(1)),
                totalTimeout: .seconds(100),
                retry: .init(maxRetries: 2, backoff: .constant(.seconds(1)), budget: .init()),
                hedging: Hedging(maxAttempts: 2, delay: .seconds(100)),
                circuitBreaker: .init(),
                attemptTimeout: .seconds(100),
                jitterSeed: 1)
            return h.ints.resilient(policy, events: ResilienceEvents { _ in _ = t }, scheduler: h.scheduler).contract()
        },
        // Not here: the async bridges (`Publishers.FromAsync`, `Publishers.FromAsyncSequence` and
        // `AsyncSequence.publisher`). They have no upstream publisher for the harness to drive, and
        // they deliver from a `Task` on the global executor, which `settle()` cannot run: each
        // check would have to wait on real time. Their own suites (FromAsyncTests,
        // FromAsyncSequenceTests) check cancel, release and demand from inside receive.
    ] + extensionOperatorCatalog + flatteningAndRacingCatalog + chaosOperatorCatalog
}()

/// A text stream that drops what it is given, for `print` in the contract suite.
struct DiscardingStream: TextOutputStream, Sendable {
    mutating func write(_ string: String) {}
}
