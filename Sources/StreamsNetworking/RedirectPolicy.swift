import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request publisher does when the server answers with a redirect (301, 302, 303, 307,
/// 308): follow it, deliver the redirect response itself, or fail.
///
/// Whatever the policy, a redirect from `https` to `http` is never followed: the request fails
/// with ``NetworkError/insecureRedirect(from:to:)``, since following it would send the request,
/// and whatever credentials it carries, unencrypted. Nor is a redirect to any scheme but `http`
/// and `https` (`ftp`, `file`, `http+unix`, which AsyncHTTPClient would send to a local Unix
/// socket): it fails with the same error, as curl fails a redirect to a protocol it does not
/// allow. The session's own limit on the number of redirects in a row (about 20) still applies.
///
/// | policy | same origin | other origin | `https` to `http` |
/// | --- | --- | --- | --- |
/// | ``default`` | followed, headers kept | followed without `Authorization`, `Proxy-Authorization`, `Cookie` | fails |
/// | ``follow(removingOnCrossOrigin:)`` | followed, headers kept | followed without those and the named headers | fails |
/// | ``sameOriginOnly`` | followed, headers kept | not followed: the 3xx is delivered | fails |
/// | ``never`` | not followed: the 3xx is delivered | not followed | not followed |
/// | ``custom(_:)`` | the closure decides | the closure decides, given the request without credentials | fails |
/// | any but ``never`` | to `ftp`, `file`, `http+unix` or any scheme but `http`/`https`: fails | the same | fails |
///
/// Two URLs have the same origin when their scheme, host and port are the same (a missing port
/// is the scheme's default): `http://127.0.0.1:8080` and `http://localhost:8080` are different
/// origins.
///
/// ```swift
/// let publisher = URLSession.shared.requestPublisher(for: request, redirectPolicy: .sameOriginOnly)
/// ```
public struct RedirectPolicy: Sendable {
    /// One redirect the server asked for.
    ///
    /// ```swift
    /// let policy = RedirectPolicy.custom { redirect in
    ///     redirect.isCrossOrigin ? nil : redirect.request
    /// }
    /// ```
    public struct Redirect: Sendable, CustomStringConvertible, CustomReflectable {
        /// The redirect response: its status and its `Location`.
        public let response: HTTPURLResponse
        /// The request that would follow the redirect: the one that was redirected, with the new
        /// URL and, after a 303 or a POST redirected by 301 or 302, the method `GET` and no body.
        /// On a change of origin, its credentials (and the headers the policy names) are already
        /// removed.
        public let request: URLRequest
        /// Whether the redirect leads to another origin (scheme, host or port).
        public let isCrossOrigin: Bool

        /// Makes a redirect, as a test of a custom policy does.
        ///
        /// ```swift
        /// let redirect = RedirectPolicy.Redirect(response: response, request: URLRequest(url: next))
        /// ```
        public init(response: HTTPURLResponse, request: URLRequest) {
            self.response = response
            self.request = request
            isCrossOrigin = Origin(response.url) != Origin(request.url)
        }

        /// The status, where from and where to, with no secret shown.
        public var description: String {
            "redirect \(response.statusCode) from \(Redaction.url(response.url)) to \(Redaction.request(request))"
        }

        /// The redirect's parts, with no secret shown.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    "response": Redaction.response(response), "request": Redaction.request(request),
                    "isCrossOrigin": isCrossOrigin,
                ])
        }
    }

    /// What to do about one redirect.
    ///
    /// ```swift
    /// switch RedirectPolicy.default.decision(for: redirect) {
    /// case .follow(let request): send(request)
    /// case .deliverRedirectResponse: show(redirect.response)
    /// case .refuse(let error): fail(error)
    /// }
    /// ```
    public enum Decision: Sendable, CustomStringConvertible, CustomReflectable {
        /// Follow it with this request.
        case follow(URLRequest)
        /// Do not follow it: the subscriber gets the 3xx response and its body.
        case deliverRedirectResponse
        /// Fail the request with this error.
        case refuse(NetworkError)

        /// The decision, with no secret shown.
        public var description: String {
            switch self {
            case .follow(let request): "follow(\(Redaction.request(request)))"
            case .deliverRedirectResponse: "deliverRedirectResponse"
            case .refuse(let error): "refuse(\(error))"
            }
        }

        /// The decision, with no secret shown.
        public var customMirror: Mirror {
            switch self {
            case .follow(let request): Mirror(self, children: ["follow": Redaction.request(request)], displayStyle: .enum)
            case .deliverRedirectResponse: Mirror(self, children: [], displayStyle: .enum)
            case .refuse(let error): Mirror(self, children: ["refuse": error.description], displayStyle: .enum)
            }
        }
    }

    enum Rule: Sendable {
        case follow(alsoRemoving: Set<String>)
        case sameOriginOnly
        case never
        case custom(@Sendable (Redirect) -> URLRequest?)
    }

    let rule: Rule

    /// Follows redirects; on a change of origin, removes `Authorization`,
    /// `Proxy-Authorization` and `Cookie` first; refuses `https` to `http`.
    ///
    /// ```swift
    /// let publisher = URLSession.shared.requestPublisher(for: request, redirectPolicy: .default)
    /// ```
    public static let `default` = RedirectPolicy(rule: .follow(alsoRemoving: []))

    /// Follows redirects as ``default`` does, and on a change of origin also removes the
    /// headers named in `sensitiveHeaders` (any case), such as an API key of your own.
    ///
    /// ```swift
    /// let policy = RedirectPolicy.follow(removingOnCrossOrigin: ["X-Api-Key"])
    /// ```
    public static func follow(removingOnCrossOrigin sensitiveHeaders: Set<String>) -> RedirectPolicy {
        RedirectPolicy(rule: .follow(alsoRemoving: Set(sensitiveHeaders.map { $0.lowercased() })))
    }

    /// Follows only redirects within the request's origin; any other redirect is not followed,
    /// and the subscriber gets the 3xx response.
    ///
    /// ```swift
    /// let publisher = URLSession.shared.requestPublisher(for: request, redirectPolicy: .sameOriginOnly)
    /// ```
    public static let sameOriginOnly = RedirectPolicy(rule: .sameOriginOnly)

    /// Follows no redirect: the subscriber gets the 3xx response, `Location` and all.
    ///
    /// ```swift
    /// let publisher = URLSession.shared.requestPublisher(for: request, redirectPolicy: .never)
    /// ```
    public static let never = RedirectPolicy(rule: .never)

    /// Lets `decide` choose for each redirect, as Alamofire's `Redirector.modify` does: it
    /// returns the request to send (the one it is given, or a changed one) or nil to deliver the
    /// 3xx response. It is given the request without credentials on a change of origin, and is
    /// not asked about an `https` to `http` redirect, which fails. If the request it returns
    /// goes to an origin that is neither the redirect's target nor the redirected request's,
    /// `Authorization`, `Proxy-Authorization` and `Cookie` are removed from it again, and a
    /// returned `https` to `http` or non-HTTP URL fails. It runs on the session's delegate
    /// queue (on the AsyncHTTPClient transport, on a task of its own).
    ///
    /// ```swift
    /// let policy = RedirectPolicy.custom { redirect in
    ///     redirect.request.url?.host == "cdn.example.com" ? redirect.request : nil
    /// }
    /// ```
    public static func custom(_ decide: @escaping @Sendable (Redirect) -> URLRequest?) -> RedirectPolicy {
        RedirectPolicy(rule: .custom(decide))
    }

    /// The headers the caller marked sensitive (``follow(removingOnCrossOrigin:)``), lowercased:
    /// removed on a change of origin, and shown as `<redacted>` in the descriptions of the
    /// publishers and subscriptions that use the policy, as the credential headers are.
    var sensitiveHeaders: Set<String> {
        if case .follow(let alsoRemoving) = rule { alsoRemoving } else { [] }
    }

    /// The headers removed from a request that changes origin, lowercased.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// What to do about `redirect`, whose request is the one the session proposes (a copy of
    /// the redirected request, credentials and all, with the new URL).
    ///
    /// ```swift
    /// let decision = RedirectPolicy.default.decision(for: redirect)
    /// ```
    public func decision(for redirect: Redirect) -> Decision {
        if case .never = rule { return .deliverRedirectResponse }
        if let refusal = Self.refusal(from: redirect.response.url, to: redirect.request.url) { return .refuse(refusal) }
        var request = redirect.request
        if redirect.isCrossOrigin { removeCredentials(from: &request) }
        switch rule {
        case .follow:
            return .follow(request)
        case .sameOriginOnly:
            return redirect.isCrossOrigin ? .deliverRedirectResponse : .follow(request)
        case .never:
            return .deliverRedirectResponse
        case .custom(let decide):
            guard var chosen = decide(Redirect(response: redirect.response, request: request)) else {
                return .deliverRedirectResponse
            }
            if let refusal = Self.refusal(from: redirect.response.url, to: chosen.url) { return .refuse(refusal) }
            // The closure may change the request freely for the redirect's own target, or send it
            // back to the origin it came from; anywhere else, what it carries is no credential of
            // that origin's, whoever put it there.
            let origin = Origin(chosen.url)
            if origin == nil || (origin != Origin(redirect.request.url) && origin != Origin(redirect.response.url)) {
                removeCredentials(from: &chosen)
            }
            return .follow(chosen)
        }
    }

    /// Removes from `request` the credential headers and those the policy marks sensitive.
    private func removeCredentials(from request: inout URLRequest) {
        let removed = Self.credentialHeaders.union(sensitiveHeaders)
        for name in Array((request.allHTTPHeaderFields ?? [:]).keys) where removed.contains(name.lowercased()) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
    }

    /// The schemes a redirect may lead to, lowercased.
    static let redirectableSchemes: Set<String> = ["http", "https"]

    /// The error for a redirect that no policy follows, or nil if it is not one: from `https` to
    /// anything but `https`, or to any scheme but `http` and `https` (a `file`, `ftp` or
    /// `http+unix` URL, which would reach files, other protocols or local sockets).
    private static func refusal(from: URL?, to: URL?) -> NetworkError? {
        let target = to?.scheme?.lowercased()
        if let from, from.scheme?.lowercased() == "https", target != "https" {
            return .insecureRedirect(from: from, to: to ?? from)
        }
        guard let target, redirectableSchemes.contains(target) else {
            let source = from ?? to ?? URL(fileURLWithPath: "/")
            return .insecureRedirect(from: source, to: to ?? source)
        }
        return nil
    }
}
