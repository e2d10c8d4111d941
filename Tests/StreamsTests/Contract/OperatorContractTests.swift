import Streams
import StreamsTesting
import Testing

/// Combine's contract, checked over every operator in ``operatorCatalog``.
@Suite struct OperatorContractTests {
    /// Runs `body`, recording its failures as known issues when the entry lists `check`.
    private func check(_ entry: OperatorEntry, _ check: ContractCheck, _ body: () throws -> Void) rethrows {
        if entry.knownIssues.contains(where: { $0 == check }) {
            withKnownIssue("\(entry.name) does not meet \(check) yet", isIntermittent: true) { try body() }
        } else {
            try body()
        }
    }

    @Test(arguments: operatorCatalog)
    func reflection(_ entry: OperatorEntry) throws {
        let harness = ContractHarness()
        let subscriber = TestSubscriber<String, any Error>()
        entry.build(harness).subscribe(subscriber)
        harness.settle()
        let inner = try #require(harness.source?.subscriber)
        check(entry, .reflection) {
            #expect(!(inner is any CustomDebugStringConvertible))
            switch entry.reflection {
            case .named(let name, let children):
                #expect(String(describing: inner) == name)
                #expect((inner as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == name)
                #expect(Mirror(reflecting: inner).children.map { $0.label ?? "" } == children)
            case .notReflectable:
                #expect(!(inner is any CustomStringConvertible))
                #expect(!(inner is any CustomReflectable))
                #expect(!(inner is any CustomPlaygroundDisplayConvertible))
            }
        }
        subscriber.cancel()
        harness.settle()
    }

    @Test(arguments: operatorCatalog)
    func secondSubscription(_ entry: OperatorEntry) throws {
        let harness = ContractHarness()
        let subscriber = TestSubscriber<String, any Error>()
        entry.build(harness).subscribe(subscriber)
        harness.settle()
        let source = try #require(harness.source)
        let extra = source.sendSecondSubscription()
        check(entry, .secondSubscription) {
            if entry.passThrough {
                // No duplicate check: the second subscription goes downstream as it is.
                #expect(extra.cancels == 0)
                #expect(subscriber.subscriptionCount == 2)
            } else {
                #expect(extra.cancels == 1)
                #expect(subscriber.subscriptionCount == 1)
            }
        }
        subscriber.cancel()
        harness.settle()
    }

    @Test(arguments: operatorCatalog.filter { !$0.passThrough })
    func nothingArrivesAfterCancel(_ entry: OperatorEntry) throws {
        let harness = ContractHarness()
        let subscriber = TestSubscriber<String, any Error>()
        entry.build(harness).subscribe(subscriber)
        harness.settle()
        let source = try #require(harness.source)
        source.ignoresCancel = true
        source.send(1)
        harness.settle()
        subscriber.cancel()
        let seen = subscriber.events.count
        source.send(2)
        source.send(3)
        source.finish()
        harness.settle()
        check(entry, .nothingAfterCancel) {
            #expect(subscriber.events.count == seen)
        }
    }

    @Test(arguments: operatorCatalog)
    func releasedAfterCompletion(_ entry: OperatorEntry) {
        weak var tracked: Tracked?
        weak var downstream: TestSubscriber<String, any Error>?
        do {
            let harness = ContractHarness()
            let subscriber = TestSubscriber<String, any Error>()
            entry.build(harness).subscribe(subscriber)
            harness.settle()
            harness.source?.send(1)
            harness.settle()
            harness.source?.finish()
            harness.settle()
            harness.scheduler.run()
            tracked = harness.tracked
            downstream = subscriber
        }
        check(entry, .releasedAfterCompletion) {
            #expect(tracked == nil)
            #expect(downstream == nil)
        }
    }

    @Test(arguments: operatorCatalog)
    func releasedAfterCancel(_ entry: OperatorEntry) {
        weak var tracked: Tracked?
        weak var downstream: TestSubscriber<String, any Error>?
        do {
            let harness = ContractHarness()
            let subscriber = TestSubscriber<String, any Error>()
            entry.build(harness).subscribe(subscriber)
            harness.settle()
            harness.source?.send(1)
            harness.settle()
            subscriber.cancel()
            harness.settle()
            tracked = harness.tracked
            downstream = subscriber
        }
        check(entry, .releasedAfterCancel) {
            #expect(tracked == nil)
            #expect(downstream == nil)
        }
    }

    @Test(arguments: operatorCatalog)
    func reentrantRequestAndCancel(_ entry: OperatorEntry) throws {
        let harness = ContractHarness()
        let subscriber = CancelOnSecondValueSubscriber<String, any Error>()
        entry.build(harness).subscribe(subscriber)
        harness.settle()
        let source = try #require(harness.source)
        for index in 1...6 {
            source.send(index)
            harness.settle()
        }
        source.finish()
        harness.settle()
        check(entry, .reentrant) {
            #expect(subscriber.valuesAfterCancel == 0)
        }
    }
}
