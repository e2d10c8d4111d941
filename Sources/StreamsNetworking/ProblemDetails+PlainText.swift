import Foundation

extension ProblemDetails {
    /// The longest `text/plain` error body read as the server's reason: 1 KiB, room for a few
    /// sentences. A longer one (a log, a stack trace) is not read.
    public static let plainTextLimit = 1_024

    /// Reads an error body by its `Content-Type`: one of the JSON shapes ``parse(_:)`` knows,
    /// whatever the type says, or else, for `text/plain`, the body itself as ``detail`` (so as
    /// the ``reason``), as many servers send a short sentence. Nil otherwise. Never traps.
    ///
    /// A plain-text body is read only when it is short (up to ``plainTextLimit`` bytes), decodes
    /// in its charset (UTF-8 when it names none; also US-ASCII and ISO-8859-1), and is not HTML
    /// (it does not start with `<` and has no tags such as `<html`, `<body` or `</`). Its control
    /// and invisible formatting characters (bidirectional overrides, zero-width ones) are
    /// removed, line breaks and tabs become spaces, runs of spaces one, and it is trimmed; what
    /// is left must not be empty.
    ///
    /// ```swift
    /// ProblemDetails.parse(Data("Name is taken.\r\n".utf8), contentType: "text/plain; charset=utf-8")?.reason
    /// // "Name is taken."
    /// ```
    public static func parse(_ body: Data, contentType: String?) -> ProblemDetails? {
        if let problem = parse(body) { return problem }
        return plainText(body, contentType: contentType).map { ProblemDetails(detail: $0) }
    }

    /// The sentence of a short, printable `text/plain` body, cleaned; nil for anything else.
    static func plainText(_ body: Data, contentType: String?) -> String? {
        guard !body.isEmpty, body.count <= plainTextLimit, let contentType else { return nil }
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parameters.first == "text/plain" else { return nil }
        let charset = parameters.dropFirst().first { $0.hasPrefix("charset=") }
            .map { $0.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        let encoding: String.Encoding
        switch charset {
        case nil, "utf-8", "utf8": encoding = .utf8
        case "us-ascii", "ascii": encoding = .ascii
        case "iso-8859-1", "latin1", "iso_8859-1": encoding = .isoLatin1
        default: return nil
        }
        guard let decoded = String(data: body, encoding: encoding) else { return nil }
        var cleaned = String.UnicodeScalarView()
        for scalar in decoded.unicodeScalars {
            if scalar.properties.isWhitespace {
                if let last = cleaned.last, last != " " { cleaned.append(" ") }
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: continue
            default: cleaned.append(scalar)
            }
        }
        let text = String(cleaned).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !looksLikeHTML(text) else { return nil }
        return text
    }

    /// Whether `text` is markup rather than a sentence.
    private static func looksLikeHTML(_ text: String) -> Bool {
        if text.hasPrefix("<") { return true }
        let lowered = text.lowercased()
        return ["</", "<html", "<head", "<body", "<!doctype", "<br", "<p>", "<div", "<script"].contains { lowered.contains($0) }
    }
}
