import Foundation
import Streams
import StreamsRecovery

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
final class Log<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item] = []

    var items: [Item] { lock.withLock { stored } }

    func append(_ item: Item) {
        lock.withLock { stored.append(item) }
    }
}

extension ErrorPresentation {
    /// The option titles, in order.
    var titles: [String] { options.map(\.title) }
}
