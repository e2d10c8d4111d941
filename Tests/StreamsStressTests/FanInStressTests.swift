import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct FanInStressTests {
    /// `zip` under a small window of demand (four, one more per tuple), over upstreams that emit on queues of their own: the
    /// demand for each tuple reaches every upstream from whichever thread completed it (returned
    /// from that upstream's `receive(_:)`, requested from the other), so the zip never stalls.
    @Test func zipWithASmallDemandWindowOverUpstreamsOnOtherThreads() {
        let count = scaled(20_000)
        let a = (0..<count).publisher.subscribe(on: DispatchQueue(label: "zip.a"))
        let b = (0..<count).publisher.subscribe(on: DispatchQueue(label: "zip.b"))
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(4), demandPerValue: .max(1))
        a.zip(b).subscribe(subscriber)
        spin { subscriber.completion != nil }
        let values = subscriber.values
        #expect(values.count == count)
        #expect(values.allSatisfy { $0.0 == $0.1 })
        print("stress: zip with a demand window of 4 over 2 queues: \(values.count) pairs checked")
    }

    /// `combineLatest` likewise: every value's demand, returned by the downstream, reaches both
    /// upstreams, so each upstream sends all its values.
    @Test func combineLatestWithDemandOneAtATimeOverUpstreamsOnOtherThreads() {
        let count = scaled(20_000)
        let a = (0..<count).publisher.subscribe(on: DispatchQueue(label: "combineLatest.a"))
        let b = (0..<count).publisher.subscribe(on: DispatchQueue(label: "combineLatest.b"))
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1), demandPerValue: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        spin { subscriber.completion != nil }
        let values = subscriber.values
        #expect(values.last.map { [$0.0, $0.1] } == [count - 1, count - 1])
        print("stress: combineLatest one at a time over 2 queues: \(values.count) tuples checked")
    }
}
