#if !canImport(Combine)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsTesting

/// A session whose data tasks never touch the network: each counts its `resume()` calls and,
/// if given an outcome, hands it to its completion handler on the first one. It lets a test
/// give `dataTaskPublisher` what no real protocol can, such as no response and no error.
final class CannedSession: URLSession, @unchecked Sendable {
    /// A data task that reports `outcome` when first resumed, or never ends if it has none.
    final class Task: URLSessionDataTask, @unchecked Sendable {
        typealias Outcome = (data: Data?, response: URLResponse?, error: URLError?)
        private let outcome: Outcome?
        private let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        private let resumes = Locked(0)

        init(outcome: Outcome?, handler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
            self.outcome = outcome
            self.handler = handler
            super.init()
        }

        /// How many times `resume()` was called.
        var resumeCount: Int { resumes.withLock { $0 } }

        override func resume() {
            let first = resumes.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            if first, let outcome { handler(outcome.data, outcome.response, outcome.error) }
        }

        override func cancel() {}
    }

    private let outcome: Task.Outcome?
    private let made = Locked<[Task]>([])

    /// A session whose tasks report `outcome`, or never end if it is nil.
    init(outcome: Task.Outcome?) {
        self.outcome = outcome
        super.init(configuration: .ephemeral, delegate: nil, delegateQueue: nil)
    }

    /// The tasks made so far.
    var tasks: [Task] { made.withLock { $0 } }

    override func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        let task = Task(outcome: outcome, handler: completionHandler)
        made.withLock { $0.append(task) }
        return task
    }
}
#endif
