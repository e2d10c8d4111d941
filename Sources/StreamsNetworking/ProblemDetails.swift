import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a server said about an error, read from the body of an error response: the members of
/// RFC 9457 problem details (`application/problem+json`), or the same facts from the shapes
/// servers commonly send instead.
///
/// | body | read as |
/// | --- | --- |
/// | `{"type", "title", "status", "detail", "instance"}` (RFC 9457) | the same fields |
/// | `"errors": [{"pointer" or "field" or "name", "detail" or "message" or "reason"}]` | ``fieldErrors`` |
/// | `"errors": {"email": ["is taken"]}` | ``fieldErrors`` |
/// | `"invalid-params": [{"name", "reason"}]` (RFC 7807's example) | ``fieldErrors`` |
/// | `{"message": "..."}` | ``detail`` |
/// | `{"error": "..."}` | ``title`` (as Spring sends it, beside `message`) |
/// | `{"error": {"message": "...", "errors": [...]}}` | ``detail``, ``fieldErrors`` |
/// | `{"error_description": "..."}` (OAuth) | ``detail`` |
/// | `{"reason": "..."}` | ``detail`` |
///
/// ```swift
/// if case .validation(let failure) = error, let problem = failure.problem {
///     for field in problem.fieldErrors { form.mark(field.field, with: field.message) }
/// }
/// ```
public struct ProblemDetails: Sendable, Hashable {
    /// One input the server rejected.
    ///
    /// ```swift
    /// let fieldError = ProblemDetails.FieldError(field: "email", message: "is already taken")
    /// ```
    public struct FieldError: Sendable, Hashable {
        /// The input, as the server names it (a name, a path or a JSON pointer); nil if it did
        /// not say.
        public var field: String?
        /// What is wrong with it.
        public var message: String

        /// Makes a field error.
        ///
        /// ```swift
        /// let fieldError = ProblemDetails.FieldError(field: "age", message: "must be positive")
        /// ```
        public init(field: String?, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// A URI reference that names the kind of problem.
    public var type: String?
    /// A short summary of the kind of problem.
    public var title: String?
    /// The status the server says it sent.
    public var status: Int?
    /// What went wrong this time.
    public var detail: String?
    /// A URI reference for this occurrence.
    public var instance: String?
    /// The inputs the server rejected, if it said.
    public var fieldErrors: [FieldError]

    /// Makes problem details.
    ///
    /// ```swift
    /// let problem = ProblemDetails(title: "Out of credit", detail: "Your balance is 30, but that costs 50.")
    /// ```
    public init(
        type: String? = nil, title: String? = nil, status: Int? = nil, detail: String? = nil, instance: String? = nil,
        fieldErrors: [FieldError] = []
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.fieldErrors = fieldErrors
    }

    /// The server's reason in one string: the detail, or else the title.
    public var reason: String? { detail ?? title }

    /// The longest error body that is parsed: 64 KiB. A longer body (an HTML error page, a
    /// hostile server) is not parsed; its error is still classified by its status.
    public static let parsingLimit = 65_536

    /// Reads any bytes: the problem details in `body`, or nil when it is longer than
    /// ``parsingLimit``, is not JSON, or says nothing this type holds. Never traps.
    ///
    /// ```swift
    /// let problem = ProblemDetails.parse(Data(#"{"message": "Name taken"}"#.utf8))   // detail "Name taken"
    /// ```
    public static func parse(_ body: Data) -> ProblemDetails? {
        guard !body.isEmpty, body.count <= parsingLimit, let json = try? JSONDecoder().decode(JSONValue.self, from: body),
            case .object = json
        else { return nil }
        let nested = json["error"]
        var problem = ProblemDetails(
            type: json.firstText(["type"]),
            title: json.firstText(["title"]) ?? json["error"]?.text,
            status: json["status"]?.integer ?? nested?["code"]?.integer,
            detail: json.firstText(["detail", "message", "error_description", "reason"])
                ?? nested?.firstText(["message", "detail", "reason", "description"]),
            instance: json.firstText(["instance"]))
        for key in ["errors", "invalid-params", "invalid_params"] {
            if let value = json[key] { problem.fieldErrors += fieldErrors(in: value) }
        }
        if let errors = nested?["errors"] { problem.fieldErrors += fieldErrors(in: errors) }
        let isEmpty =
            problem.type == nil && problem.title == nil && problem.status == nil && problem.detail == nil
            && problem.instance == nil && problem.fieldErrors.isEmpty
        return isEmpty ? nil : problem
    }

    private static let fieldKeys = ["pointer", "field", "name", "param", "parameter", "path", "property", "attribute"]
    private static let messageKeys = ["detail", "message", "reason", "msg", "title", "description"]

    /// Field errors from a list (`[{"field", "message"}]`, `["message"]`) or a map
    /// (`{"field": "message"}`, `{"field": ["message", ...]}`, `{"field": {"message"}}`).
    private static func fieldErrors(in value: JSONValue) -> [FieldError] {
        switch value {
        case .array(let items):
            return items.compactMap { item in
                if let message = item.text { return FieldError(field: nil, message: message) }
                guard let message = item.firstText(messageKeys) else { return nil }
                return FieldError(field: item.firstText(fieldKeys), message: message)
            }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { field, messages -> [FieldError] in
                switch messages {
                case .string(let message) where !message.isEmpty:
                    return [FieldError(field: field, message: message)]
                case .array(let list):
                    return list.compactMap { $0.text ?? $0.firstText(messageKeys) }.map { FieldError(field: field, message: $0) }
                case .object:
                    return messages.firstText(messageKeys).map { [FieldError(field: field, message: $0)] } ?? []
                default:
                    return []
                }
            }
        default:
            return []
        }
    }
}

/// Reads the body of an error response that the built-in shapes of ``ProblemDetails`` do not
/// cover; nil to fall back to them.
///
/// ```swift
/// let legacy: ErrorBodyParser = { body, _ in
///     String(data: body, encoding: .utf8).map { ProblemDetails(detail: $0) }
/// }
/// ```
public typealias ErrorBodyParser = @Sendable (_ body: Data, _ response: HTTPURLResponse) -> ProblemDetails?
