import Foundation

/// Any JSON value, for reading error bodies whose shape is not known in advance.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value if it is a string that is not empty.
    var text: String? {
        if case .string(let text) = self, !text.isEmpty { text } else { nil }
    }

    /// The value if it is a whole number an `Int` holds (a number, or a string of one).
    var integer: Int? {
        switch self {
        case .number(let number):
            number.isFinite && number.rounded() == number && abs(number) < 1e15 ? Int(number) : nil
        case .string(let text):
            Int(text)
        default:
            nil
        }
    }

    /// The member `key` of an object.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The first of `keys` whose member is a non-empty string.
    func firstText(_ keys: [String]) -> String? {
        for key in keys {
            if let text = self[key]?.text { return text }
        }
        return nil
    }
}
