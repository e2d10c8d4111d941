/// A failure of a loopback server whose `URLError` code differs between transports.
///
/// ```swift
/// let codes: [TransportFailure: URLError.Code] = [.closeMidBody: .networkConnectionLost]
/// ```
public enum TransportFailure: Hashable, Sendable {
    /// The server closes the connection without a reply.
    case closeWithoutReply
    /// The server closes the connection in the middle of the body.
    case closeMidBody
    /// The server answers a TLS handshake in plain HTTP.
    case tlsHandshake
}
