import Foundation
import Streams
import StreamsTesting
import Testing

/// What the stage operators do with events out of contract. A value before the upstream's
/// subscription: `tryMap` and `tryScan` process and forward it, as Combine does; `output`,
/// `encode` and `decode` ignore it, where Combine forwards it to a downstream that has no
/// subscription yet. After the operator's own completion nothing more is forwarded, where
/// Combine's `tryMap`, `tryScan` and `output` go on. Both differences are documented in
/// "Events after an operator's own completion are dropped" in Docs/MigratingFromCombine.md.
@Suite struct StageOutOfContractTests {
    private static func upstream() -> ManualUpstream<Int, TestError> {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        return upstream
    }

    @Test func tryMapAndTryScanForwardIt() {
        let mapped = Self.upstream()
        let mapSubscriber = TestSubscriber<Int, any Error>()
        mapped.tryMap { $0 * 10 }.subscribe(mapSubscriber)
        mapped.send(1)
        #expect(mapSubscriber.values == [10])

        let scanned = Self.upstream()
        let scanSubscriber = TestSubscriber<Int, any Error>()
        scanned.tryScan(0, +).subscribe(scanSubscriber)
        scanned.send(2)
        #expect(scanSubscriber.values == [2])
    }

    @Test(arguments: ["output", "encode", "decode"])
    func outputEncodeAndDecodeIgnoreIt(_ name: String) {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<String, any Error>()
        switch name {
        case "output": upstream.output(in: 0..<5).map(String.init).mapError { $0 as any Error }.subscribe(subscriber)
        case "encode": upstream.encode(encoder: JSONEncoder()).map { String(decoding: $0, as: UTF8.self) }.subscribe(subscriber)
        default:
            upstream.map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder()).map(String.init)
                .subscribe(subscriber)
        }
        #expect(upstream.send(1) == .none)
        #expect(subscriber.events.isEmpty)
        upstream.sendSubscription()
        upstream.send(2)
        #expect(subscriber.values == ["2"])
    }

    @Test(arguments: ["tryMap", "tryScan", "output"])
    func nothingIsForwardedAfterTheOperatorsOwnCompletion(_ name: String) {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true  // a misbehaving upstream that goes on sending
        let subscriber = TestSubscriber<Int, any Error>()
        switch name {
        case "tryMap":
            upstream.tryMap { value -> Int in
                if value == 1 { throw TestError.oops }; return value
            }.subscribe(subscriber)
        case "tryScan":
            upstream.tryScan(0) { sum, value -> Int in
                if value == 1 { throw TestError.oops }; return sum + value
            }
            .subscribe(subscriber)
        default: upstream.output(at: 0).mapError { $0 as any Error }.subscribe(subscriber)
        }
        upstream.send(name == "output" ? 0 : 1)
        #expect(subscriber.completions.count == 1)
        let valuesAtTheEnd = subscriber.values
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.values == valuesAtTheEnd)
        #expect(subscriber.completions.count == 1)
    }
}
