import Streams

extension ResilienceEvents {
    /// The selective retry's observer: its events told as ``ResilienceEvent``s, and each attempt
    /// timed on the ``TimelineInstant`` time line; nil without an observer.
    @usableFromInline
    var retryObserver: RetryEventObserver? {
        guard let observer else { return nil }
        return RetryEventObserver(
            emit: { event in
                switch event {
                case .attemptStarted(let attempt):
                    observer(.attemptStarted(attempt: attempt))
                case .attemptEnded(let attempt, let duration, let error):
                    observer(.attemptEnded(attempt: attempt, duration: duration, error: error))
                case .retryScheduled(let retry, let delay, let error):
                    observer(.retryScheduled(retry: retry, delay: delay, error: error))
                case .retryGaveUp(let reason, let attempts, let error):
                    observer(.retryGaveUp(reason: reason, attempts: attempts, error: error))
                }
            },
            timelineOffset: { ($0 as? any TimelineInstant)?.timelineOffset })
    }
}
