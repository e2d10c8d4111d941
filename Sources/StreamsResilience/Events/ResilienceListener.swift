/// Who listens to a ``ResilienceEvents``: the observer, the operation's name, and the call the
/// events belong to (with its report). Held behind one reference, so that `ResilienceEvents.none`
/// is one nil word to copy and check.
@usableFromInline
final class ResilienceListener: Sendable {
    @usableFromInline
    let observer: (@Sendable (ResilienceEvent, ResilienceEventContext) -> Void)?
    /// The name of the operation the events are told for.
    @usableFromInline
    let operation: String?
    /// The call the events are told for, when they belong to one.
    @usableFromInline
    let call: ResilienceCall?

    /// A listener, or nil when there is neither an observer nor a report to tell.
    static func make(
        observer: (@Sendable (ResilienceEvent, ResilienceEventContext) -> Void)?, operation: String?, call: ResilienceCall?
    ) -> ResilienceListener? {
        guard observer != nil || call?.recorder != nil else { return nil }
        return ResilienceListener(observer: observer, operation: operation, call: call)
    }

    private init(
        observer: (@Sendable (ResilienceEvent, ResilienceEventContext) -> Void)?, operation: String?, call: ResilienceCall?
    ) {
        self.observer = observer
        self.operation = operation
        self.call = call
    }

    /// Tells `event`, told in `call` of `operation`, to the call's report and to the observer.
    @usableFromInline
    func tell(_ event: ResilienceEvent, in call: ResilienceCall?, operation: String?) {
        call?.recorder?.record(event)
        guard let observer else { return }
        let context = call?.context(of: event, operation: operation) ?? ResilienceEventContext(operation: operation)
        observer(event, context)
    }
}
