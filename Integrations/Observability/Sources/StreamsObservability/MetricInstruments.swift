import Metrics
import Synchronization

/// The instruments one ``ResilienceMetrics`` has made, by label and dimensions, so that an event
/// costs a dictionary look-up rather than a registration with the factory.
final class MetricInstruments: Sendable {
    let factory: any MetricsFactory
    private let counters = Mutex<[[String]: Counter]>([:])
    private let timers = Mutex<[[String]: Timer]>([:])
    private let gauges = Mutex<[[String]: Gauge]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        instrument(in: counters, label, dimensions) { Counter(label: label, dimensions: dimensions, factory: factory) }
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> Timer {
        instrument(in: timers, label, dimensions) {
            Timer(label: label, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
        }
    }

    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        instrument(in: gauges, label, dimensions) { Gauge(label: label, dimensions: dimensions, factory: factory) }
    }

    /// The instrument stored under the label and dimensions, or the one `make` makes (outside
    /// the lock: it calls the factory), stored unless another thread stored one first.
    private func instrument<Instrument: Sendable>(
        in table: borrowing Mutex<[[String]: Instrument]>, _ label: String, _ dimensions: [(String, String)],
        make: () -> Instrument
    ) -> Instrument {
        let key = [label] + dimensions.flatMap { [$0.0, $0.1] }
        if let stored = table.withLock({ $0[key] }) { return stored }
        let made = make()
        return table.withLock { stored in
            if let first = stored[key] { return first }
            stored[key] = made
            return made
        }
    }
}
