/// A response, or an error made from one, that carries the server's announced quota: a
/// ``ResiliencePipeline`` whose policy has ``ResiliencePolicy/pushback`` reads it from every
/// value and every failure of an attempt, and keeps its ``PushbackLimiter`` in step.
///
/// StreamsNetworking's `NetworkResponse`, `NetworkError` and `HTTPErrorResponse` conform,
/// reading the rate-limit headers.
///
/// ```swift
/// struct Page: ServerQuotaProviding {
///     var items: [Item]
///     var serverQuota: ServerQuota?
/// }
/// ```
public protocol ServerQuotaProviding {
    /// The quota the server announced with this response; nil when it announced none.
    var serverQuota: ServerQuota? { get }
}
