/// An action kept until it is taken: what ``AnyCancellable`` and `TimerAction` keep in their
/// `LockedState`.
///
/// A struct of its own rather than a bare `(() -> Void)?`, and handed out of the lock as one: a
/// closure that is a generic parameter's value (the value of the lock, or the result of
/// `withLock`) is kept in the most general calling convention, so storing it wraps it in a
/// reabstraction thunk, a heap allocation of its own, and reading it back wraps it again. A
/// closure in a field of a non-generic struct keeps its own convention, so neither happens.
///
/// ```swift
/// let state = LockedState(PendingAction { print("cancelled") })
/// state.withLock { $0.take() }.run()   // prints "cancelled"
/// state.withLock { $0.take() }.run()   // does nothing
/// ```
@usableFromInline
package struct PendingAction {
    /// The action, until it is taken.
    @usableFromInline
    package var action: (() -> Void)?

    /// Keeps `action` until it is taken.
    @inlinable
    package init(_ action: (() -> Void)?) {
        self.action = action
    }

    /// Empties this one and returns what it held.
    @inlinable
    package mutating func take() -> PendingAction {
        defer { action = nil }
        return self
    }

    /// Runs the action, if there is one.
    @inlinable
    package func run() {
        action?()
    }
}
