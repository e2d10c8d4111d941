import Foundation

/// The origin of a URL, as browsers compare them: scheme, host and port, the port being the
/// scheme's default when the URL names none. Credentials belong to one origin.
struct Origin: Hashable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    /// The origin of `url`, or nil if it has no scheme or host.
    init?(_ url: URL?) {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        switch (components.port, scheme) {
        case (let port?, _): self.port = port
        case (nil, "https"): self.port = 443
        case (nil, "http"): self.port = 80
        case (nil, _): self.port = -1
        }
    }

    var description: String { "\(scheme)://\(host):\(port)" }
}
