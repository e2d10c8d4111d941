import Streams
import Synchronization

/// Whether the call under way may be sent again: what the resilience stages of one call
/// (`resilient(_:scheduler:isSafeToRepeat:)`, `attemptTimeout(_:scheduler:events:isSafeToRepeat:)`,
/// `ResiliencePipeline.execute(isSafeToRepeat:_:)`) were told, and what the requests they sent
/// said of themselves.
///
/// A stage binds its `RepeatSafety` to ``current`` while it subscribes to its upstream (or runs
/// the operation of an `async` call); a publisher that knows its request is not safe to repeat
/// (StreamsNetworking's request publishers, for a POST without an `Idempotency-Key`) calls
/// ``declareNotSafe()`` when it is subscribed. The stages read ``isSafe`` when they decide: when
/// an attempt times out, before a hedged copy starts, and when the retry judges a timeout. So a
/// POST guarded by `.standardHTTP` is sent once, without being told.
///
/// Once not safe, a call stays so. The flag is read and written from any thread.
@usableFromInline
package final class RepeatSafety: Sendable {
    /// The safety of the call whose stages are subscribing on this task or thread, if any.
    @TaskLocal package static var current: RepeatSafety?

    /// What the stages were told.
    let told: Bool
    /// Set once a request of the call said it is not safe to repeat.
    let declaredNotSafe = Atomic<Bool>(false)

    /// A call's safety, as its stages were told.
    @usableFromInline
    package init(_ isSafeToRepeat: Bool) {
        told = isSafeToRepeat
    }

    /// Whether the call may be sent again: told so, and no request of it said otherwise.
    @usableFromInline
    package var isSafe: Bool {
        told && !declaredNotSafe.load(ordering: .acquiring)
    }

    /// Runs `body` (a subscription to an upstream, or an attempt of an `async` call) with this
    /// call bound to ``current``.
    @usableFromInline
    package func bound<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self, operation: body)
    }

    /// `bound(_:)` for an `async` attempt.
    package func bound<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await Self.$current.withValue(self, operation: body)
    }

    /// Marks the call bound to ``current`` (if any) as not safe to repeat: for a publisher whose
    /// request would take effect twice if sent twice.
    package static func declareNotSafe() {
        current?.declaredNotSafe.store(true, ordering: .releasing)
    }
}
