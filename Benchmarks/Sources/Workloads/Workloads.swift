// The benchmark workloads. This one file is compiled twice: into StreamsWorkloads (with
// STREAMS defined) and into OpenCombineWorkloads; only the import differs, so both libraries run
// identical code. Each workload returns a checksum so the optimiser cannot drop the work.

import Dispatch

#if STREAMS
import Streams
import StreamsExt
import StreamsResilience
import StreamsTesting
#else
import OpenCombine
import OpenCombineDispatch
#endif

/// The workloads, each run over `count` elements (or cycles).
public enum Workloads {
    /// W1: `Publishers.Sequence` -> map -> sink. Combine's API makes `Sequence.map` an eager
    /// array map, which is what this measures.
    public static func sequenceMap(_ count: Int) -> Int {
        var sum = 0
        let cancellable = (0..<count).publisher.map { $0 &* 2 }.sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W1g: the same chain written against a generic publisher, so the real `Publishers.Map` runs.
    public static func sequenceMapGeneric(_ count: Int) -> Int {
        mapThenSink((0..<count).publisher)
    }

    @inline(never)
    static func mapThenSink<P: Publisher>(_ publisher: P) -> Int where P.Output == Int, P.Failure == Never {
        var sum = 0
        let cancellable = publisher.map { $0 &* 2 }.sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W2: a sequence through four (map, filter) pairs, with `Sequence`'s eager overloads.
    public static func sequenceChain(_ count: Int) -> Int {
        var sum = 0
        // One step per line: the eager overloads make one long chain too slow to type-check.
        let step1 = (0..<count).publisher.map { (value: Int) in value &+ 1 }
        let step2 = step1.filter { (value: Int) in value & 1 == 0 }
        let step3 = step2.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value & 3 != 0 }
        let step4 = step3.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value >= 0 }
        let step5 = step4.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value >= 0 }
        let cancellable = step5.sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W2g: the same four (map, filter) pairs through a generic publisher.
    public static func sequenceChainGeneric(_ count: Int) -> Int {
        chainThenSink((0..<count).publisher)
    }

    @inline(never)
    static func chainThenSink<P: Publisher>(_ publisher: P) -> Int where P.Output == Int, P.Failure == Never {
        var sum = 0
        let cancellable =
            publisher
            .map { $0 &+ 1 }.filter { $0 & 1 == 0 }
            .map { $0 &+ 1 }.filter { $0 & 3 != 0 }
            .map { $0 &+ 1 }.filter { $0 >= 0 }
            .map { $0 &+ 1 }.filter { $0 >= 0 }
            .sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W3: `PassthroughSubject.send` -> map -> filter -> sink.
    public static func subjectChain(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// W4: subject -> `flatMap { Just($0) }` -> sink.
    public static func flatMapJust(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.flatMap { Just($0) }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// W18: subject -> `flatMap { Future }` -> sink: W4 with an inner publisher that is
    /// subscribed to (a `Future` fulfilled in its closure), so the general child path is measured.
    public static func flatMapFuture(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.flatMap { value in Future<Int, Never> { $0(.success(value)) } }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// W5: subject -> `share()` with four sinks; counted per send.
    public static func shareFourSinks(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        var sum = 0
        let cancellables = (0..<4).map { _ in shared.sink { sum &+= $0 } }
        for value in 0..<count { subject.send(value) }
        cancellables.forEach { $0.cancel() }
        return sum
    }

    /// W6: subscribe and cancel `Just(1).map {}.sink`: the cost of setting a pipeline up.
    public static func subscribeCancel(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let cancellable = Just(1).map { $0 &+ 1 }.sink { sum &+= $0 }
            cancellable.cancel()
        }
        return sum
    }

    /// W19: subscribe `subject.map {}.sink`, send one value, cancel: W6's set-up on a publisher
    /// whose outcome is not known in advance, as a search field does per keystroke.
    public static func subjectSubscribeCancel(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        for _ in 0..<count {
            let cancellable = subject.map { $0 &+ 1 }.sink { sum &+= $0 }
            subject.send(1)
            cancellable.cancel()
        }
        return sum
    }

    /// W7: subject -> `removeDuplicates()` -> sink, values in runs of three.
    public static func removeDuplicatesRuns(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.removeDuplicates().sink { sum &+= $0 }
        for value in 0..<count { subject.send(value / 3) }
        cancellable.cancel()
        return sum
    }

    /// W8: `Fail(...).catch { Just(0) }.sink`, subscribed and cancelled.
    public static func failCatch(_ count: Int) -> Int {
        struct Failure: Error {}
        var sum = 0
        for _ in 0..<count {
            let cancellable = Fail<Int, Failure>(error: Failure()).catch { _ in Just(1) }.sink { sum &+= $0 }
            cancellable.cancel()
        }
        return sum
    }

    /// W20: `Deferred { Fail(...) }.catch { Just(0) }.sink`, subscribed and cancelled: W8 with an
    /// upstream whose failure is known only by subscribing, so that `catch` subscribes to it.
    public static func deferredFailCatch(_ count: Int) -> Int {
        struct Failure: Error {}
        var sum = 0
        for _ in 0..<count {
            let cancellable = Deferred { Fail<Int, Failure>(error: Failure()) }.catch { _ in Just(1) }.sink { sum &+= $0 }
            cancellable.cancel()
        }
        return sum
    }

    /// The queue W15 to W17 schedule their timers on.
    static let timerQueue = DispatchQueue(label: "workloads.timers")

    /// `timerQueue` as the library's scheduler.
    #if STREAMS
    static var timers: DispatchQueue { timerQueue }
    #else
    static var timers: DispatchQueue.OCombine { timerQueue.ocombine }
    #endif

    /// The failure of the request-shaped workloads.
    struct Outage: Error {}

    /// W15: a request-shaped pipeline, subscribed per cycle: a callback wrapped as
    /// `Deferred { Future }` (answering at once), a 30 s timeout on a `DispatchQueue`, Combine's
    /// `retry(3)`, a sink; set-up, one value, the completion and the teardown.
    public static func requestShaped(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            _ = Deferred { Future<Int, Outage> { promise in promise(.success(value)) } }
                .timeout(.seconds(30), scheduler: timers)
                .retry(3)
                .sink(receiveCompletion: { _ in }, receiveValue: { sum &+= $0 })
        }
        return sum
    }

    /// W17: subject -> `debounce(for: 1 s)` on a `DispatchQueue` -> sink; counted per send (each
    /// send reschedules the debounce's timer; none fires during the run).
    public static func debounceDispatchQueue(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.debounce(for: .seconds(1), scheduler: timers).sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum &+ count
    }

    #if STREAMS
    /// W16: W15 with Streams' selective retry (exponential backoff on the same queue) instead
    /// of Combine's `retry(3)`.
    public static func requestShapedSelectiveRetry(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            _ = Deferred { Future<Int, Outage> { promise in promise(.success(value)) } }
                .timeout(.seconds(30), scheduler: timers)
                .retry(3, backoff: .exponential(), scheduler: timers)
                .sink(receiveCompletion: { _ in }, receiveValue: { sum &+= $0 })
        }
        return sum
    }

    /// W10: `combineLatest` of three subjects, sends spread over the three. OpenCombine 0.14 has
    /// no `combineLatest`.
    public static func combineLatestThree(_ count: Int) -> Int {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = a.combineLatest(b, c).sink { sum &+= $0.0 &+ $0.1 &+ $0.2 }
        for value in 0..<count {
            switch value % 3 {
            case 0: a.send(value)
            case 1: b.send(value)
            default: c.send(value)
            }
        }
        cancellable.cancel()
        return sum
    }

    /// W11: subject -> `share(replay: 1)` with four sinks; counted per send.
    public static func shareReplayFourSinks(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share(replay: 1)
        var sum = 0
        let cancellables = (0..<4).map { _ in shared.sink { sum &+= $0 } }
        for value in 0..<count { subject.send(value) }
        cancellables.forEach { $0.cancel() }
        return sum
    }

    /// W12, W13, W14: the collection `combineLatest()` of 10, 1,000 and 10,000 subjects, sends
    /// spread over them in turn once each has a value; counted per send. Each send produces an
    /// array of `publishers` values, which the sink reads one element of.
    public static func combineLatestMany(_ count: Int, publishers: Int) -> Int {
        let subjects = (0..<publishers).map { _ in PassthroughSubject<Int, Never>() }
        var sum = 0
        let cancellable = subjects.combineLatest().sink { sum &+= $0[sum & 1] }
        for subject in subjects { subject.send(0) }
        for value in 0..<count { subjects[value % publishers].send(value) }
        cancellable.cancel()
        return sum
    }

    /// W9: `debounce` on the virtual clock: bursts of ten values, each burst settled by
    /// advancing a second. OpenCombine has no virtual-time scheduler.
    public static func debounceVirtualTime(_ count: Int) -> Int {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.debounce(for: .milliseconds(100), scheduler: scheduler).sink { sum &+= $0 }
        for value in 0..<count {
            subject.send(value)
            if value % 10 == 9 { scheduler.advance(by: .seconds(1)) }
        }
        cancellable.cancel()
        return sum
    }

    // Resilience (Streams only). R0 is the baseline that R1, R2 and R3 add their operator to:
    // the difference per value is what the operator costs.

    /// R0: a subject into a sink: the baseline of R1 to R3.
    public static func resilienceBaseline(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// R1: R0 through a closed circuit breaker (no events observed).
    public static func closedBreakerPerValue(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.circuitBreaker(CircuitBreaker(), scheduler: ImmediateScheduler.shared).sink(
            receiveCompletion: { _ in }, receiveValue: { sum &+= $0 })
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// R2: R0 through a concurrency limiter with permits to spare.
    public static func idleLimiterPerValue(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.concurrencyLimiter(ConcurrencyLimiter()).sink(
            receiveCompletion: { _ in }, receiveValue: { sum &+= $0 })
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// R3: R0 through the selective retry, with its events unobserved.
    public static func retryPerValue(_ count: Int) -> Int {
        struct Outage: Error {}
        let subject = PassthroughSubject<Int, Outage>()
        var sum = 0
        let cancellable = subject.retry(3, backoff: .exponential(), scheduler: ImmediateScheduler.shared).sink(
            receiveCompletion: { _ in }, receiveValue: { sum &+= $0 })
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// R6: R0 through `map`, for scale: what one operator that takes no lock adds per value.
    public static func mapPerValue(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &+ 1 }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// R4: a `Just` into a sink, subscribed per cycle: the baseline of R5.
    public static func justPerCycle(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            _ = Just(value).sink { sum &+= $0 }
        }
        return sum
    }

    /// R5: R4 hedged: the hedge's set-up and its one value, per cycle (the value comes at once,
    /// so no delay is scheduled).
    public static func hedgePerCycle(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            _ = Just(value).hedge(scheduler: ImmediateScheduler.shared).sink { sum &+= $0 }
        }
        return sum
    }
    #endif
}
