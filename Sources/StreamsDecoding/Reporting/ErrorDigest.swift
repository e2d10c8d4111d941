/// The errors a ``ResilientDecodingErrorReporter`` collected, with where each happened.
///
/// `debugDescription` prints them as a tree of properties and array positions:
///
/// ```text
/// 3 errors (and 1 unknown novel value)
/// - posts
///   - [1]: Expected to decode Int but found a string instead. (at id)
///   - [4]: missing key "title"
/// - pinned
///   - author: Cannot get value of type String -- found null value instead (at name)
/// - layout: unknown novel value "carousel" for Layout
/// ```
///
/// ```swift
/// let (feed, digest) = try JSONDecoder().decode(Feed.self, from: data, reportResilientDecodingErrors: true)
/// if let digest { print(digest.debugDescription) }
/// ```
public struct ErrorDigest: Sendable, CustomDebugStringConvertible {
    /// One reported error and the path of the value it was recovered at.
    struct Entry: Sendable {
        let path: [String]
        let error: any Error

        var isNovelValue: Bool { error is UnknownNovelValueError }
    }

    let entries: [Entry]

    /// The errors recovered from, in the order they happened, without the
    /// ``UnknownNovelValueError``s (values newer than this version of the app, which are
    /// expected).
    ///
    /// ```swift
    /// logger.error("\(digest.errors.count) values could not be decoded")
    /// ```
    public var errors: [any Error] {
        errors(includeUnknownNovelValueErrors: false)
    }

    /// The errors recovered from, in the order they happened; with
    /// `includeUnknownNovelValueErrors`, the ``UnknownNovelValueError``s too.
    ///
    /// ```swift
    /// let everything = digest.errors(includeUnknownNovelValueErrors: true)
    /// ```
    public func errors(includeUnknownNovelValueErrors: Bool) -> [any Error] {
        entries.filter { includeUnknownNovelValueErrors || !$0.isNovelValue }.map(\.error)
    }

    /// A tree of the properties and positions where errors were recovered from, each with a
    /// short message (see the type's example).
    public var debugDescription: String {
        let novel = entries.filter(\.isNovelValue).count
        let counted = entries.count - novel
        var header = counted == 1 ? "1 error" : "\(counted) errors"
        if novel > 0 { header += " (and \(novel) unknown novel \(novel == 1 ? "value" : "values"))" }
        let root = Node()
        for entry in entries {
            root.insert(message: Self.message(for: entry.error, below: entry.path), at: entry.path[...])
        }
        var lines = [header]
        root.render(depth: 0, into: &lines)
        return lines.joined(separator: "\n")
    }

    /// A short message for `error`: the decoding error's own text, with the part of its path
    /// below `path`.
    static func message(for error: any Error, below path: [String]) -> String {
        let text: String
        let context: DecodingError.Context
        switch error {
        case DecodingError.typeMismatch(_, let errorContext), DecodingError.valueNotFound(_, let errorContext),
            DecodingError.dataCorrupted(let errorContext):
            text = errorContext.debugDescription
            context = errorContext
        case DecodingError.keyNotFound(let key, let errorContext):
            text = "missing key \"\(key.stringValue)\""
            context = errorContext
        default:
            return String(describing: error)
        }
        let names = context.codingPath.map(DigestPath.name(of:))
        guard names.count > path.count, names.starts(with: path) else { return text }
        return "\(text) (at \(names.dropFirst(path.count).joined(separator: ".")))"
    }

    /// A level of the tree: messages reported at this path, then the deeper paths: keys in the
    /// order they were first reported, array positions in ascending order.
    private final class Node {
        var messages: [String] = []
        var children: [(name: String, node: Node)] = []

        func insert(message: String, at path: ArraySlice<String>) {
            guard let first = path.first else {
                messages.append(message)
                return
            }
            let child: Node
            if let existing = children.first(where: { $0.name == first }) {
                child = existing.node
            } else {
                child = Node()
                children.insert((first, child), at: position(for: first))
            }
            child.insert(message: message, at: path.dropFirst())
        }

        /// Where a new child goes: after its siblings, except that an array position goes before
        /// the first sibling position that is larger, so that `[1]` comes before `[3]` even when
        /// `[3]` was reported first (an element's own `@Resilient` property reports while it is
        /// decoded; the elements left out are reported when the array is done).
        private func position(for name: String) -> Int {
            guard let index = DigestPath.index(in: name) else { return children.count }
            return children.firstIndex { DigestPath.index(in: $0.name).map { $0 > index } ?? false } ?? children.count
        }

        func render(depth: Int, into lines: inout [String]) {
            let indent = String(repeating: "  ", count: depth)
            if depth == 0 {
                for message in messages { lines.append("- <root>: \(message)") }
            }
            for (name, node) in children {
                if node.children.isEmpty && node.messages.count == 1 {
                    lines.append("\(indent)- \(name): \(node.messages[0])")
                    continue
                }
                lines.append("\(indent)- \(name)")
                for message in node.messages { lines.append("\(indent)  - \(message)") }
                node.render(depth: depth + 1, into: &lines)
            }
        }
    }
}
