import Streams
import StreamsExt
import StreamsTesting

/// The operators beyond Combine's (CombineExt's and RxSwift's), for the contract suite: joined
/// to ``operatorCatalog`` there.
let extensionOperatorCatalog: [OperatorEntry] = {
    let none: [String] = []
    return [
        // Built on `map`: the upstream's own subscription goes downstream.
        OperatorEntry("mapToValue", .named("Map", children: none), passThrough: true) { h in
            h.ints.mapToValue(1).contract()
        },
        OperatorEntry("mapToVoid", .named("Map", children: none), passThrough: true) { h in h.ints.mapToVoid().contract() },
        OperatorEntry("toggle", .named("Map", children: none), passThrough: true) { h in
            h.upstream { $0.isMultiple(of: 2) }.toggle().contract()
        },
        OperatorEntry("mapMany", .named("Map", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.upstream { [$0] }.mapMany {
                _ = t; return $0 + 1
            }.contract()
        },
        OperatorEntry("filterMany", .named("Map", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.upstream { [$0] }.filterMany {
                _ = t; return $0 > 0
            }.contract()
        },
        OperatorEntry("ignoreOutput(setOutputType:)", .named("IgnoreOutput", children: none), passThrough: true) { h in
            h.ints.ignoreOutput(setOutputType: String.self).contract()
        },
        // `setOutputType(to:)` needs an upstream that never sends a value: `ignoreOutput` makes one.
        OperatorEntry("setOutputType(to:)", .named("IgnoreOutput", children: none), passThrough: true) { h in
            h.ints.ignoreOutput().setOutputType(to: String.self).contract()
        },
        OperatorEntry("mapToResult", .named("AsResult", children: none)) { h in h.ints.mapToResult().contract() },
        OperatorEntry("ignoreFailure", .named("Catch", children: ["downstream", "demand"])) { h in
            h.ints.ignoreFailure().contract()
        },
        OperatorEntry("prefix(while:behavior: .inclusive)", .named("PrefixWhile", children: ["downstream"])) { h in
            let t = h.tracked
            return h.ints.prefix(
                while: {
                    _ = t; return $0 < 100
                }, behavior: .inclusive
            ).contract()
        },
        OperatorEntry("enumerated", .named("Enumerated", children: ["downstream", "index"])) { h in
            h.ints.enumerated().contract()
        },
        OperatorEntry("materialize", .named("Materialize", children: none)) { h in h.ints.materialize().contract() },
        // The harness' upstreams of events cannot be infallible: these run behind `materialize`.
        OperatorEntry("dematerialize", .named("Materialize", children: none)) { h in
            h.ints.materialize().dematerialize().contract()
        },
        OperatorEntry("values()", .named("Materialize", children: none)) { h in h.ints.materialize().values().contract() },
        OperatorEntry("failures()", .named("Materialize", children: none)) { h in
            h.ints.materialize().failures().contract()
        },
        // The other publisher sends its value at once, so the upstream is subscribed at once.
        OperatorEntry("withLatestFrom", .named("WithLatestFrom", children: none)) { h in
            let t = h.tracked
            return h.ints.withLatestFrom(Just(0).setFailureType(to: TestError.self)) {
                _ = t; return $0 + $1
            }.contract()
        },
        // The upstream is seen by `map`, whose subscriber hands its subscription to switchToLatest's.
        OperatorEntry("flatMapLatest", .named("Map", children: none)) { h in
            let t = h.tracked
            return h.ints.flatMapLatest { value in
                _ = t; return Just(value).setFailureType(to: TestError.self)
            }.contract()
        },
        // The harness settles a second: the upstream is subscribed after half of it.
        OperatorEntry("delaySubscription", .named("DelaySubscription", children: none)) { h in
            h.ints.delaySubscription(for: .milliseconds(500), scheduler: h.scheduler).contract()
        },
        // The resource holds the tracked object: it must be let go of with the subscription.
        OperatorEntry("Publishers.Using", .named("Using", children: none)) { h in
            let t = h.tracked
            let upstream = h.ints
            return Publishers.Using(
                resourceFactory: { AnyCancellable { _ = t } },
                publisherFactory: { _ in upstream }
            ).contract()
        },
        OperatorEntry("nwise", .named("NWise", children: ["size"])) { h in h.ints.nwise(2).contract() },
        OperatorEntry("pairwise", .named("NWise", children: ["size"])) { h in h.ints.pairwise().map { "\($0)" }.contract() },
        // The upstream of a multicast sees the subject's subscriber (`subscribe(_ subject:)`).
        OperatorEntry("share(replay:)", .named("Subject", children: ["subject"])) { h in
            h.ints.share(replay: 2).contract()
        },
        OperatorEntry("multicast(ReplaySubject)", .named("Subject", children: ["subject"])) { h in
            let multicast = h.ints.multicast { ReplaySubject<Int, TestError>(bufferSize: 2) }
            h.keep(multicast.connect())
            return multicast.contract()
        },
        // Built on `filter`, with a record of values per subscription.
        OperatorEntry("removeAllDuplicates", .named("Filter", children: none), passThrough: true) { h in
            h.ints.removeAllDuplicates().contract()
        },
        OperatorEntry("removeAllDuplicates(by:)", .named("Filter", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.removeAllDuplicates {
                _ = t; return $0 == $1
            }.contract()
        },
        // The upstream is seen by the `map` that `share()` shares.
        OperatorEntry("partition", .named("Map", children: none)) { h in
            let t = h.tracked
            return h.ints.partition {
                _ = t; return $0 > 0
            }.matches.contract()
        },
        // Built on `prefix(untilOutputFrom:)`, whose subscriber reflects nothing.
        OperatorEntry("prefix(duration:)", .notReflectable) { h in
            h.ints.prefix(duration: .seconds(100), on: h.scheduler).contract()
        },
        OperatorEntry("retryWhen", .named("RetryWhen", children: none)) { h in
            let t = h.tracked
            return h.ints.retryWhen { failures in
                _ = t; return failures.map { _ in () }
            }.contract()
        },
        // The trigger ticks twice per virtual second, so each settle takes a sample.
        OperatorEntry("sample", .named("Sample", children: none)) { h in
            let scheduler = h.scheduler
            let ticks = (0..<100).publisher.setFailureType(to: TestError.self).flatMap(maxPublishers: .max(1)) {
                Just($0).setFailureType(to: TestError.self).delay(for: .milliseconds(500), scheduler: scheduler)
            }
            return h.ints.sample(ticks).contract()
        },
    ]
}()
