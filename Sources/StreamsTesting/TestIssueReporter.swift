#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(Testing)
@_weakLinked import Testing
#endif

/// Where StreamsTesting reports a failure it finds in a test, such as an
/// ``UnimplementedScheduler`` being used.
///
/// The ``automatic`` reporter records the failure with Swift Testing (`Issue.record`) when a
/// Swift Testing test is running, and otherwise with XCTest's `XCTFail` when XCTest is loaded;
/// with neither, it prints the failure. XCTest is looked up when the process runs, never linked.
/// Swift Testing is linked weakly: on Apple platforms an app target may still link
/// StreamsTesting without it; on Linux the binary needs the toolchain's `libTesting.so`, which
/// ships with the Swift runtime of the toolchain. A test may bind its own reporter for the work
/// it runs:
///
/// ```swift
/// let messages = Locked<[String]>([])
/// TestIssueReporter.$current.withValue(TestIssueReporter { message in messages.withLock { $0.append(message) } }) {
///     DispatchQueue.unimplemented("Feed").schedule {}
/// }
/// ```
public struct TestIssueReporter: Sendable {
    private let report: @Sendable (String) -> Void

    /// A reporter that hands each failure's message to `report`.
    ///
    /// ```swift
    /// let printing = TestIssueReporter { print("failure:", $0) }
    /// ```
    public init(_ report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    /// Reports a failure described by `message`.
    ///
    /// ```swift
    /// TestIssueReporter.current.reportIssue("The feed scheduled work it should not have")
    /// ```
    public func reportIssue(_ message: String) {
        report(message)
    }

    /// The reporter StreamsTesting uses in the current task: ``automatic`` unless the test binds
    /// another with `TestIssueReporter.$current.withValue(_:operation:)`.
    ///
    /// ```swift
    /// TestIssueReporter.current.reportIssue("Unexpected")
    /// ```
    @TaskLocal public static var current: TestIssueReporter = .automatic

    /// Swift Testing's `Issue.record` inside a Swift Testing test, XCTest's `XCTFail` otherwise
    /// when XCTest is loaded, and a message on standard error when neither is at hand.
    ///
    /// ```swift
    /// TestIssueReporter.automatic.reportIssue("Unexpected")
    /// ```
    public static let automatic = TestIssueReporter { message in
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            Issue.record(Comment(rawValue: message))
            return
        }
        #endif
        if let fail = xctFail {
            fail(message, #filePath, #line)
            return
        }
        let line = "StreamsTesting: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}

/// XCTest's `XCTFail(_:file:line:)`, when XCTest is loaded in the process.
private let xctFail: (@convention(thin) (String, StaticString, UInt) -> Void)? = {
    // The function's mangled name; every parameter is a standard library type, so it can be
    // called without linking XCTest.
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF") else {
        return nil
    }
    return unsafeBitCast(symbol, to: (@convention(thin) (String, StaticString, UInt) -> Void).self)
}()
