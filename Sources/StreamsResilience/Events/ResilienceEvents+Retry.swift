import Streams

extension ResilienceEvents {
    /// The selective retry's observer: its events told as ``ResilienceEvent``s, and each attempt
    /// timed on the ``TimelineInstant`` time line; nil without an observer.
    @usableFromInline
    var retryObserver: RetryEventObserver? {
        guard isObserved else { return nil }
        let events = self
        return RetryEventObserver(
            emit: { event in
                switch event {
                case .attemptStarted(let attempt):
                    events.emit(.attemptStarted(attempt: attempt))
                case .attemptEnded(let attempt, let duration, let error):
                    events.emit(.attemptEnded(attempt: attempt, duration: duration, error: error))
                case .retryScheduled(let retry, let delay, let error):
                    events.emit(.retryScheduled(retry: retry, delay: delay, error: error))
                case .retryGaveUp(let reason, let attempts, let error):
                    events.emit(.retryGaveUp(reason: reason, attempts: attempts, error: error))
                }
            },
            timelineOffset: { ($0 as? any TimelineInstant)?.timelineOffset })
    }
}
