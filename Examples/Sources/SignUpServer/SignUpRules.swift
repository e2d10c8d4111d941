import Synchronization

/// The sign-up protocol's rules for `GET /isUserNameAvailable?userName=NAME`, apart from HTTP,
/// so that they read as a table. The protocol is the one of the article Streams' design started
/// from; any server that follows these rules passes `signup-demo --base-url URL`:
///
/// | name | answer |
/// | --- | --- |
/// | missing or "" | 400 `{"error": true, "reason": "emptyName"}` |
/// | fewer than 4 characters | 400 `{"error": true, "reason": "tooShort"}` |
/// | "admin", "superuser" | 400 `{"error": true, "reason": "illegalName"}` |
/// | a taken name ("johndoe", "page", ...) | 200 `{"isAvailable": false}` |
/// | "illegalresponse" | 200 with a body that lacks `isAvailable` |
/// | "servererror" | 500, without `Retry-After` |
/// | "maintenance" | of every three requests, the first two get 500 `{"error": true, "reason": "maintenance"}` with a `Retry-After` of a few seconds (delta-seconds or an HTTP-date), the third 200 `{"isAvailable": true}` |
/// | any other name | 200 `{"isAvailable": true}` |
public final class SignUpRules: Sendable {
    /// What the server answers.
    public enum Answer: Equatable, Sendable {
        /// 200 `{"isAvailable": Bool}`.
        case available(Bool)
        /// 400 `{"error": true, "reason": ...}`.
        case badRequest(reason: String)
        /// 200 with a JSON body that lacks `isAvailable`.
        case malformed
        /// 500 `{"error": true, "reason": ...}`, with `Retry-After: seconds` when set.
        case serverError(reason: String, retryAfterSeconds: Int?)
    }

    /// Names already taken.
    public static let takenNames: Set<String> = ["peterfriese", "johnnyappleseed", "page", "johndoe"]
    /// Names nobody may take.
    public static let illegalNames: Set<String> = ["admin", "superuser"]
    /// How long "maintenance" asks clients to wait, in seconds.
    public static let maintenanceRetryAfter = 2

    private let maintenanceRequests = Mutex(0)

    /// Makes the rules; the "maintenance" counter starts at zero.
    public init() {}

    /// The answer for `userName` (`nil` when the parameter is missing); see the table above.
    public func answer(for userName: String?) -> Answer {
        let name = userName ?? ""
        if name.isEmpty { return .badRequest(reason: "emptyName") }
        if name.count < 4 { return .badRequest(reason: "tooShort") }
        if Self.illegalNames.contains(name) { return .badRequest(reason: "illegalName") }
        switch name {
        case "illegalresponse":
            return .malformed
        case "servererror":
            return .serverError(reason: "serverError", retryAfterSeconds: nil)
        case "maintenance":
            let request = maintenanceRequests.withLock { count in
                count += 1
                return count
            }
            return request % 3 == 0
                ? .available(true) : .serverError(reason: "maintenance", retryAfterSeconds: Self.maintenanceRetryAfter)
        default:
            return .available(!Self.takenNames.contains(name))
        }
    }
}
