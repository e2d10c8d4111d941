/// What a subscription that runs a `Task` runs in it.
///
/// The task's closure calls the body through this existential, so that it captures no generic
/// parameter of the subscription: a task closure that captured, say, the downstream's type
/// would capture a metatype that need not be `Sendable`.
///
/// ```swift
/// let body: any AsyncTaskBody = subscription
/// let task = Task { await body.run() }
/// ```
@usableFromInline
package protocol AsyncTaskBody: Sendable {
    /// The task's work.
    func run() async
}
