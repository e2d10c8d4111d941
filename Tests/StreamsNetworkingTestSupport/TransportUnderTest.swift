import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking

/// A transport that the loopback suite (``TransportSuite``) runs against, and what it reports
/// where transports may differ.
///
/// ```swift
/// let urlSession = TransportUnderTest(name: "URLSession") { URLSession(configuration: .ephemeral) }
/// ```
public struct TransportUnderTest: Sendable, CustomStringConvertible {
    /// The transport's name, in test output.
    public let name: String
    /// The `URLError` codes the transport reports for failures that each platform words its own
    /// way; a failure not named here is checked only by its category.
    public let codes: [TransportFailure: URLError.Code]
    /// Whether a redirect response that is not followed is delivered with its body
    /// (FoundationNetworking delivers it with an empty body).
    public let keepsRedirectBody: Bool
    /// Makes a transport with no cache that opens at least 16 connections to one host at once.
    public let make: @Sendable () -> any HTTPTransport

    /// A transport under test called `name`, made by `make`, reporting `codes`.
    ///
    /// ```swift
    /// let transport = TransportUnderTest(name: "URLSession", codes: [.closeWithoutReply: .badServerResponse]) { session }
    /// ```
    public init(
        name: String, codes: [TransportFailure: URLError.Code] = [:], keepsRedirectBody: Bool = true,
        make: @escaping @Sendable () -> any HTTPTransport
    ) {
        self.name = name
        self.codes = codes
        self.keepsRedirectBody = keepsRedirectBody
        self.make = make
    }

    /// The name.
    public var description: String { name }
}
