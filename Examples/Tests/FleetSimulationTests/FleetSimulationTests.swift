import FleetSimulation
import Testing

@Suite("Fleet simulation")
struct FleetSimulationTests {
    /// A smaller fleet than the example's, so that the test stays quick in a debug build; the
    /// shape of the outage is the same.
    static let simulation: FleetSimulation = {
        var simulation = FleetSimulation()
        simulation.clients = 50
        simulation.requestsPerClientPerSecond = 4
        simulation.duration = 70
        return simulation
    }()

    @Test func theStandardPolicyKeepsTheLoadNearNormalWhereRetryAloneMultipliesIt() {
        let normal = Double(Self.simulation.normalLoad)
        let none = Self.simulation.run(.none)
        let retryOnly = Self.simulation.run(.retryOnly)
        let standard = Self.simulation.run(.standard)
        print(FleetReport.table([none, retryOnly, standard]))
        // Without a policy every request is one call: the load stays the normal load.
        #expect(Double(none.peakDuringOutage) <= 1.1 * normal)
        // Retry alone multiplies it while the backend is down...
        #expect(retryOnly.meanDuringOutage >= 2.5 * normal)
        // ...while the breaker and the budget keep it within a small multiple of normal, and
        // below normal on average, during the outage and while the backend recovers.
        #expect(standard.meanDuringOutage <= normal)
        #expect(Double(standard.peakWhileRecovering) <= 2 * normal)
        #expect(Double(retryOnly.peakWhileRecovering) > Double(standard.peakWhileRecovering))
        // And the backend recovers no later than with retry alone.
        #expect((standard.secondsToRecover ?? .max) <= (retryOnly.secondsToRecover ?? .max))
    }

    @Test func aBudgetAloneStopsTheMultiplicationOnceItIsSpent() {
        let retryOnly = Self.simulation.run(.retryOnly)
        let budget = Self.simulation.run(.retryWithBudget)
        #expect(budget.meanDuringOutage < retryOnly.meanDuringOutage)
        #expect(budget.totalCalls < retryOnly.totalCalls)
    }

    @Test func theRunIsTheSameEveryTime() {
        #expect(Self.simulation.run(.standard).received == Self.simulation.run(.standard).received)
    }
}
