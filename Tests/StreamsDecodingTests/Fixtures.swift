import Foundation
import StreamsDecoding
import StreamsResilience

/// Decodes `json` with a fresh decoder that reports into a fresh reporter.
func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> (T, ErrorDigest?) {
    try JSONDecoder().decode(T.self, from: Data(json.utf8), reportResilientDecodingErrors: true)
}

enum Layout: String, ResilientRawRepresentable, Equatable {
    case list, grid, unknown
    static var decodingFallback: Layout { .unknown }
}

enum Weekday: Int, ResilientRawRepresentable, Equatable {
    case monday = 1
    case tuesday = 2
}

enum Unit: String, ResilientRawRepresentable, Equatable {
    case metric, imperial
    static var isFrozen: Bool { true }
}

struct Author: Decodable, Equatable {
    let name: String
}

struct Post: Decodable, Equatable {
    let id: Int
    @Resilient var author: Author?
}

extension Result {
    /// The value, or `nil` for a failure, so that results compare in tests.
    var value: Success? { try? get() }
}
