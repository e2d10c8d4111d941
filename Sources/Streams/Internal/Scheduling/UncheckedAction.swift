/// A closure handed to an API that wants a `Sendable` one: the schedulers run work on other
/// threads by design, and Combine's `Scheduler` does not require the work to be `Sendable`.
@usableFromInline
// Unchecked: Combine's `Scheduler` runs work on other threads without requiring it to be Sendable.
package struct UncheckedAction: @unchecked Sendable {
    @usableFromInline
    package let run: () -> Void

    @usableFromInline
    package init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
