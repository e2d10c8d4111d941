import Synchronization

/// The reference sign-up server's rules for `GET /isUserNameAvailable?userName=NAME`, apart
/// from HTTP, so that they read as a table.
public final class SignUpRules: Sendable {
    /// What the server answers.
    public enum Answer: Equatable, Sendable {
        /// 200 `{"isAvailable": Bool}`.
        case available(Bool)
        /// 400 `{"error": true, "reason": ...}`.
        case badRequest(reason: String)
        /// 200 with a JSON body that lacks `isAvailable`.
        case malformed
        /// 500, with `Retry-After: seconds` when set.
        case serverError(retryAfterSeconds: Int?)
    }

    /// Names already taken.
    public static let takenNames: Set<String> = ["peterfriese", "johnnyappleseed", "page", "johndoe"]
    /// Names nobody may take.
    public static let illegalNames: Set<String> = ["admin", "superuser"]

    private let maintenanceRequests = Mutex(0)

    /// Makes the rules; the "maintenance" counter starts at zero.
    public init() {}

    /// The answer for `userName` (`nil` when the parameter is missing).
    ///
    /// - "": 400 `emptyName`; fewer than 4 characters: 400 `userNameTooShort`;
    ///   "admin", "superuser": 400 `illegalUserName`;
    /// - taken names: not available; "illegalresponse": a body without the field;
    /// - "servererror": 500; "maintenance": 500 with `Retry-After: 1` for the first two of
    ///   every three requests, then available.
    public func answer(for userName: String?) -> Answer {
        let name = userName ?? ""
        if name.isEmpty { return .badRequest(reason: "emptyName") }
        if name.count < 4 { return .badRequest(reason: "userNameTooShort") }
        if Self.illegalNames.contains(name) { return .badRequest(reason: "illegalUserName") }
        switch name {
        case "illegalresponse":
            return .malformed
        case "servererror":
            return .serverError(retryAfterSeconds: nil)
        case "maintenance":
            let request = maintenanceRequests.withLock { count in
                count += 1
                return count
            }
            return request % 3 == 0 ? .available(true) : .serverError(retryAfterSeconds: 1)
        default:
            return .available(!Self.takenNames.contains(name))
        }
    }
}
