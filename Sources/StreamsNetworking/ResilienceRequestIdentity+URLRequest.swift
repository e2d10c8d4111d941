import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsResilience

extension ResilienceRequestIdentity {
    /// The identity of `request` as resilience events tell it: its method (GET when it names
    /// none, as URLSession sends it) and its origin, `scheme://host:port` with the scheme's
    /// default port; never its path, query, headers or credentials. A request without a scheme
    /// or host has the origin "".
    ///
    /// ```swift
    /// var post = URLRequest(url: URL(string: "https://user:secret@pay.example.com/charges?card=4242")!)
    /// post.httpMethod = "POST"
    /// ResilienceRequestIdentity(post)   // POST https://pay.example.com:443
    /// ```
    public init(_ request: URLRequest) {
        self.init(method: request.httpMethod ?? "GET", origin: Origin(request.url)?.description ?? "")
    }
}
