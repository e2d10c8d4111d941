import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The descriptions and mirrors of the public types that describe a request or a response: what
// `print`, string interpolation, `String(reflecting:)` and `dump` show of them, with every
// secret (see `Redaction`) reading `<redacted>`.

extension HTTPErrorResponse: CustomDebugStringConvertible, CustomReflectable {
    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The status, what the server said, the hint, the request and the response's headers, with
    /// the secrets redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "status": status,
                "reason": reason.map(Redaction.text) as Any,
                "retryAfter": retryAfter as Any,
                "request": request,
                "response": response.map(Redaction.response) as Any,
            ])
    }
}

extension NetworkResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The status, the URL and the headers, with the secrets redacted, such as
    /// `200 https://api.example.com/v1/me [Set-Cookie: <redacted>]`.
    public var description: String { Redaction.response(response) }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The value, the response (redacted) and the request.
    public var customMirror: Mirror {
        Mirror(self, children: ["value": value, "response": Redaction.response(response), "request": request])
    }
}

extension APIRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method, the path, the query and the headers, with the secrets redacted; a body
    /// shows as `<redacted>`.
    public var description: String {
        var components = URLComponents()
        components.path = path
        components.queryItems = query.isEmpty ? nil : query
        var text = "\(method.rawValue) \(Redaction.text(components.string ?? path))"
        let headers = Redaction.headers(headers)
        if !headers.isEmpty { text += " [\(headers.joined(separator: ", "))]" }
        if body != nil { text += " body: \(Redaction.placeholder)" }
        return text
    }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The description alone: the headers and the body are not reflected.
    public var customMirror: Mirror { Mirror(self, children: ["request": description]) }
}

extension ProblemDetails: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What the server said, with the values of its secret-named `name=value` pairs redacted,
    /// such as `ProblemDetails(status: 401, detail: "token=<redacted> expired")`.
    ///
    /// ```swift
    /// print(ProblemDetails(detail: "token=abc expired"))   // ProblemDetails(detail: "token=<redacted> expired")
    /// ```
    public var description: String {
        var parts: [String] = []
        if let type { parts.append("type: \(Redaction.text(type).debugDescription)") }
        if let title { parts.append("title: \(Redaction.text(title).debugDescription)") }
        if let status { parts.append("status: \(status)") }
        if let detail { parts.append("detail: \(Redaction.text(detail).debugDescription)") }
        if let instance { parts.append("instance: \(Redaction.text(instance).debugDescription)") }
        if !fieldErrors.isEmpty { parts.append("fieldErrors: [\(fieldErrors.map(\.description).joined(separator: "; "))]") }
        return "ProblemDetails(\(parts.joined(separator: ", ")))"
    }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The members, their secret-named `name=value` pairs redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "type": type.map(Redaction.text) as Any,
                "title": title.map(Redaction.text) as Any,
                "status": status as Any,
                "detail": detail.map(Redaction.text) as Any,
                "instance": instance.map(Redaction.text) as Any,
                "fieldErrors": fieldErrors,
            ])
    }
}

extension ProblemDetails.FieldError: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The field and its message, the message's secret-named `name=value` pairs redacted, such
    /// as `password: password=<redacted> is too short`.
    ///
    /// ```swift
    /// print(ProblemDetails.FieldError(field: "name", message: "is taken"))   // name: is taken
    /// ```
    public var description: String { "\(field.map(Redaction.text) ?? "-"): \(Redaction.text(message))" }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The field and the message, redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["field": field.map(Redaction.text) as Any, "message": Redaction.text(message)])
    }
}
