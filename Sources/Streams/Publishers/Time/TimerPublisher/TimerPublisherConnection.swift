import Foundation

/// What `Timer.TimerPublisher.connect()` returns: cancelling it stops the timer.
///
/// As in Combine, it is a plain `Cancellable`, not an `AnyCancellable`: dropping it does not stop
/// the timer, and it conforms to none of the reflection protocols.
// Unchecked: it holds the Foundation timer, which is not Sendable; invalidating it is thread-safe.
final class TimerPublisherConnection: Cancellable, @unchecked Sendable {
    private let timer: Foundation.Timer
    private let tick: TimerAction

    init(timer: Foundation.Timer, tick: TimerAction) {
        self.timer = timer
        self.tick = tick
    }

    func cancel() {
        timer.invalidate()
        tick.release()
    }
}
