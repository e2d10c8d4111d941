import StreamsResilience
import Synchronization

/// Collects the events of a registry's pipelines.
final class EventLog: Sendable {
    private let events = Mutex<[ResilienceEvent]>([])
    private let told = Mutex<[ResilienceEventContext]>([])

    /// The registry's observer: every key's pipeline tells this log.
    var observer: @Sendable (String) -> ResilienceEvents {
        { _ in
            ResilienceEvents { event, context in
                self.events.withLock { $0.append(event) }
                self.told.withLock { $0.append(context) }
            }
        }
    }

    /// The context of each event, in order.
    var contexts: [ResilienceEventContext] {
        told.withLock { $0 }
    }

    /// The delays of the retries scheduled so far.
    var retryDelays: [Duration] {
        events.withLock { events in
            events.compactMap { event in
                if case .retryScheduled(_, let delay, _) = event { delay } else { nil }
            }
        }
    }

    /// The descriptions of the errors the retries were scheduled after.
    var retriedErrors: [String] {
        events.withLock { events in
            events.compactMap { event in
                if case .retryScheduled(_, _, let error) = event { error.redactedDescription } else { nil }
            }
        }
    }
}
