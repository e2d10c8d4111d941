import Streams
import StreamsTesting

/// What `publisher` sends to a subscriber that asks for everything (while `afterSubscribing`
/// runs, if given), written out: the values, then `|` for `.finished` or `! error` for a
/// failure (`…` when it has not completed).
func trace<P: Publisher>(_ publisher: P, afterSubscribing: () -> Void = {}) -> String {
    let subscriber = TestSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    afterSubscribing()
    let values = subscriber.values.map { "\($0)" }
    let end: String
    switch subscriber.completion {
    case .finished?: end = "|"
    case .failure(let error)?: end = "! \(error)"
    case nil: end = "…"
    }
    return (values + [end]).joined(separator: " ")
}
