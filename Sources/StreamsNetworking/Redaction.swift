import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What StreamsNetworking shows of requests, responses and errors in descriptions, mirrors and
/// anything else it prints: everything but the secrets, which read `<redacted>`.
///
/// Secrets are the values of the `Authorization`, `Proxy-Authorization`, `Cookie` and
/// `Set-Cookie` headers (and of the headers a ``RedirectPolicy`` marks sensitive, where the
/// policy is known), the values of query items (and of `name=value`, `name: value` and JSON
/// `"name":"value"` pairs in any text) whose
/// name is `token`, `access_token`, `api_key`, `key`, `password`, `secret` or `signature` in any
/// case, the password of a URL, and request bodies.
enum Redaction {
    /// What a secret reads as.
    static let placeholder = "<redacted>"

    /// The headers whose values are secrets, lowercased.
    static let sensitiveHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The names of query items whose values are secrets, lowercased.
    static let sensitiveNames: Set<String> = [
        "token", "access_token", "api_key", "key", "password", "secret", "signature",
    ]

    /// `url` as text, its secret query values and its password redacted.
    static func url(_ url: URL?) -> String {
        guard let url else { return "<no URL>" }
        return text(url.absoluteString)
    }

    /// `text` with the value of every `name=value` or `name: value` pair whose name is a
    /// secret's replaced, the name and value quoted or not (`token="…"`, JSON's
    /// `"token":"…"`), and the password of every URL in it (`scheme://user:password@host`), so
    /// that a URL or a body quoted in a message gives nothing away either.
    static func text(_ text: String) -> String {
        let scalars = Array(withoutPasswords(text).unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            result.append(scalar)
            index += 1
            guard scalar == "=" || scalar == ":", namesSecret(scalars, separator: index - 1) else { continue }
            // The value: after any blanks, a quoted string (to its closing quote) or a run up to
            // the next separator.
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" {
                result.append(scalars[index])
                index += 1
            }
            if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                let quote = scalars[index]
                index += 1
                while index < scalars.count, scalars[index] != quote { index += scalars[index] == "\\" ? 2 : 1 }
                index = min(index + 1, scalars.count)
                result.append(quote)
                result.append(contentsOf: placeholder.unicodeScalars)
                result.append(quote)
            } else {
                while index < scalars.count, !isValueEnd(scalars[index]) { index += 1 }
                result.append(contentsOf: placeholder.unicodeScalars)
            }
        }
        return String(result)
    }

    /// Whether the name before the `=` or `:` at `separator` is a secret's: the run of name
    /// characters there, past blanks and one closing quote.
    private static func namesSecret(_ scalars: [Unicode.Scalar], separator: Int) -> Bool {
        var end = separator
        while end > 0, scalars[end - 1] == " " || scalars[end - 1] == "\t" { end -= 1 }
        if end > 0, scalars[end - 1] == "\"" || scalars[end - 1] == "'" { end -= 1 }
        var start = end
        while start > 0, isNameCharacter(scalars[start - 1]) { start -= 1 }
        guard start < end else { return false }
        let name = String(String.UnicodeScalarView(scalars[start..<end]))
        return sensitiveNames.contains((name.removingPercentEncoding ?? name).lowercased())
    }

    /// `fields` as `Name: value` lines in name order, the secrets' values redacted, along with
    /// those of `alsoSensitive` (lowercased names).
    static func headers(_ fields: [String: String]?, alsoSensitive: Set<String> = []) -> [String] {
        (fields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            let lowercased = name.lowercased()
            let secret = sensitiveHeaders.contains(lowercased) || alsoSensitive.contains(lowercased)
            return "\(name): \(secret ? placeholder : self.text(value))"
        }
    }

    /// `request` in one line: method, URL, headers, and whether it has a body (never the body);
    /// the values of the headers in `alsoSensitive` (lowercased names) are redacted as well.
    static func request(_ request: URLRequest, alsoSensitive: Set<String> = []) -> String {
        var text = "\(request.httpMethod ?? "GET") \(url(request.url))"
        let headers = headers(request.allHTTPHeaderFields, alsoSensitive: alsoSensitive)
        if !headers.isEmpty { text += " [\(headers.joined(separator: ", "))]" }
        if request.httpBody != nil || request.httpBodyStream != nil { text += " body: \(placeholder)" }
        return text
    }

    /// `response` in one line: status, URL and headers.
    static func response(_ response: HTTPURLResponse) -> String {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            fields["\(name)"] = "\(value)"
        }
        var text = "\(response.statusCode) \(url(response.url))"
        let headers = headers(fields)
        if !headers.isEmpty { text += " [\(headers.joined(separator: ", "))]" }
        return text
    }

    /// `text` with the password of every `scheme://user:password@` in it redacted.
    private static func withoutPasswords(_ text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "://") {
            result += rest[..<marker.upperBound]
            rest = rest[marker.upperBound...]
            // The authority ends at the first "/", "?", "#" or space; its user information at
            // the last "@" before that.
            let authorityEnd = rest.firstIndex { "/?# \t\n\"'<>".contains($0) } ?? rest.endIndex
            guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
                let colon = rest[..<at].firstIndex(of: ":")
            else { continue }
            result += rest[...colon] + placeholder
            rest = rest[at...]
        }
        return result + rest
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            || scalar == "." || scalar == "%"
    }

    private static func isValueEnd(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || "&#;,\"')]}>".unicodeScalars.contains(scalar)
    }
}
