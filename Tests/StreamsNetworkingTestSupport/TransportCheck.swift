import Testing

/// One check of the loopback suite: a named test body that runs against any transport.
///
/// ```swift
/// @Test(arguments: TransportSuite.checks)
/// func check(_ check: TransportCheck) async throws {
///     try await check.run(on: transport)
/// }
/// ```
public struct TransportCheck: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// The check's name, as a sentence in camel case.
    public let name: String
    let body: @Sendable (TransportUnderTest) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (TransportUnderTest) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check against `transport`; failures are recorded as Swift Testing issues.
    ///
    /// ```swift
    /// try await check.run(on: transport)
    /// ```
    public func run(on transport: TransportUnderTest) async throws {
        try await body(transport)
    }

    /// The name.
    public var testDescription: String { name }

    /// The name.
    public var description: String { name }
}
