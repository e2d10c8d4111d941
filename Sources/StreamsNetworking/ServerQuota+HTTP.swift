import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsResilience

extension ServerQuota {
    /// The quota a response announces in its rate-limit headers, on any status, or nil when it
    /// announces none:
    /// - `RateLimit-Limit` / `X-RateLimit-Limit`: the calls the window allows (the first number
    ///   of the value, so that `100, 100;w=60` reads 100);
    /// - `RateLimit-Remaining` / `X-RateLimit-Remaining`: the calls left;
    /// - `RateLimit-Reset` / `X-RateLimit-Reset`: seconds until the reset, or the instant as
    ///   seconds since 1970 (``RateLimitHint/reset(_:now:)``);
    /// - the IETF `RateLimit` field (`"default";r=3;t=20`): the item with the fewest calls left
    ///   gives `remaining` and `reset`, where the separate headers give none.
    ///
    /// Instants are measured against the response's own `Date` header when it has one, and
    /// against `now` otherwise. `header` looks a header up by name, case-insensitively, so that
    /// any HTTP stack can use it.
    ///
    /// ```swift
    /// if let quota = ServerQuota(header: { response.value(forHTTPHeaderField: $0) }) {
    ///     pipeline.report(quota, at: DispatchQueue.main.now)
    /// }
    /// ```
    public init?(now: Date = Date(), header: (String) -> String?) {
        let serverNow = header("Date").flatMap { RetryAfter.date($0, now: now) } ?? now
        func number(_ names: String...) -> Int? {
            for name in names {
                guard let value = header(name) else { continue }
                let leading = Array(value.utf8)[...].trimmingBlanks().prefix { $0 >= 0x30 && $0 <= 0x39 }
                if let parsed = RateLimitHint.integer(leading) { return Int(clamping: parsed) }
            }
            return nil
        }
        var quota = ServerQuota(limit: number("RateLimit-Limit", "X-RateLimit-Limit"))
        quota.remaining = number("RateLimit-Remaining", "X-RateLimit-Remaining")
        for name in RateLimitHint.resetHeaders where quota.reset == nil {
            quota.reset = header(name).flatMap { RateLimitHint.reset($0, now: serverNow) }
        }
        if quota.remaining == nil || quota.reset == nil, let field = header("RateLimit"),
            let tightest = Self.tightestItem(of: field)
        {
            if quota.remaining == nil { quota.remaining = tightest.remaining }
            if quota.reset == nil { quota.reset = tightest.reset }
        }
        guard !quota.isEmpty else { return nil }
        self = quota
    }

    /// The item of an IETF `RateLimit` field with the fewest calls left (`r`), with its reset
    /// (`t`); the earlier drafts' `remaining=` and `reset=` are read too.
    private static func tightestItem(of field: String) -> (remaining: Int, reset: Duration?)? {
        var tightest: (remaining: Int, reset: Duration?)?
        // The earlier drafts' `limit=100, remaining=0, reset=30` spreads one quota over members.
        var legacyRemaining: Int64?
        var legacyReset: Int64?
        for member in RateLimitHint.split(Array(field.utf8)[...], at: UInt8(ascii: ",")) {
            var remaining: Int64?
            var reset: Int64?
            for (index, part) in RateLimitHint.split(member, at: UInt8(ascii: ";")).enumerated() {
                let pair = RateLimitHint.split(part, at: UInt8(ascii: "="))
                guard pair.count == 2 else { continue }
                let key = String(decoding: pair[0].trimmingBlanks(), as: UTF8.self).lowercased()
                let value = RateLimitHint.integer(pair[1].trimmingBlanks())
                switch (index, key) {
                case (_, "r"): remaining = value
                case (_, "t"): reset = value
                case (0, "remaining"): legacyRemaining = value
                case (0, "reset"): legacyReset = value
                default: break
                }
            }
            guard let remaining, tightest.map({ Int(clamping: remaining) < $0.remaining }) ?? true else { continue }
            tightest = (Int(clamping: remaining), reset.map { .seconds($0) })
        }
        if tightest == nil, let legacyRemaining {
            return (Int(clamping: legacyRemaining), legacyReset.map { .seconds($0) })
        }
        return tightest
    }
}

extension NetworkResponse: ServerQuotaProviding {
    /// The quota announced in the response's rate-limit headers, as `ServerQuota(now:header:)`
    /// reads them: a `ResiliencePipeline` with pushback keeps its calls within it.
    ///
    /// ```swift
    /// print(page.serverQuota?.remaining ?? 0)
    /// ```
    public var serverQuota: ServerQuota? {
        ServerQuota { response.value(forHTTPHeaderField: $0) }
    }
}

extension HTTPErrorResponse: ServerQuotaProviding {
    /// The quota announced in the refusal's rate-limit headers; nil for a failure made by hand.
    ///
    /// ```swift
    /// print(failure.serverQuota?.reset ?? .zero)
    /// ```
    public var serverQuota: ServerQuota? {
        guard let response else { return nil }
        return ServerQuota { response.value(forHTTPHeaderField: $0) }
    }
}

extension NetworkError: ServerQuotaProviding {
    /// The quota announced by the response the error was made from, if any.
    ///
    /// ```swift
    /// if let quota = error.serverQuota, quota.remaining == 0 { showQuotaNotice(until: quota.reset) }
    /// ```
    public var serverQuota: ServerQuota? { errorResponse?.serverQuota }
}
