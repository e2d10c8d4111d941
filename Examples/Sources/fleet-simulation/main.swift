// A fleet of 100 clients against a backend that goes down for 30 s and comes back cold, on
// virtual time: how much load reaches it, and how soon it recovers, with no policy, retry only,
// retry with a budget, and the standard policy. Prints the table and the chart in
// Docs/Resilience.md:
//
//     swift run --package-path Examples -c release fleet-simulation

import FleetSimulation

let simulation = FleetSimulation()
print(
    "\(simulation.clients) clients x \(simulation.requestsPerClientPerSecond) requests/s "
        + "(normal load \(simulation.normalLoad) calls/s); the backend is down from \(simulation.down.lowerBound) s "
        + "to \(simulation.down.upperBound) s, then its capacity grows from 0.2x to 1.5x the normal load over "
        + "\(simulation.warmUp) s.")
print("")
let results = FleetSimulation.Strategy.allCases.map { simulation.run($0) }
print(FleetReport.table(results))
print("")
print(FleetReport.chart(results))
