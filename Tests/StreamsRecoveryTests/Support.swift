import Foundation
import Streams
import StreamsRecovery
import StreamsTesting

enum RequestError: Error, Equatable, CategorizedError {
    case timedOut, notFound, unauthorized

    var category: ErrorCategory {
        switch self {
        case .timedOut: .retryable
        case .notFound: .nonRetryable
        case .unauthorized: .requiresLogout
        }
    }
}

/// A thread-safe list, for what closures saw.
final class Log<Item>: Sendable {
    private let stored = Locked<[Item]>([])

    var items: [Item] { stored.withLock { $0 } }

    func append(_ item: Item) {
        stored.withLock { $0.append(item) }
    }
}

extension ErrorPresentation {
    /// The option titles, in order.
    var titles: [String] { options.map(\.title) }
}
