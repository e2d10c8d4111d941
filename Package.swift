// swift-tools-version:6.0
import PackageDescription

// Streams has no package dependencies, and holds only the libraries and their tests: everything
// runnable (the examples, the retry simulation) lives in Examples/, and everything that needs a
// dependency (the benchmark harness, OpenCombine as a peer, an HTTP server framework) lives in
// Benchmarks/ or Examples/.
// `.ci/run`'s release step sets STREAMS_RELEASE_SUBSET to build and run, in release mode, only the
// suites whose subject is timing: the stress suite and the networking suite (real sockets and
// cancels racing FoundationNetworking). The other suites run in debug and under ThreadSanitizer;
// compiling them with whole-module optimisation as well took most of CI's time.
let releaseSubset = Context.environment["STREAMS_RELEASE_SUBSET"] != nil
let timingSuites: Set<String> = ["StreamsNetworkingTests", "StreamsStressTests"]

let package = Package(
    name: "Streams",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // Combine's API and behaviour, plus the selective retry, `asResult()` and error categories.
        .library(name: "Streams", targets: ["Streams"]),
        // CombineExt's and RxSwift's operators, relays and subjects (`import CombineExt`).
        .library(name: "StreamsExt", targets: ["StreamsExt"]),
        // Circuit breaker, timeouts, deadline, hedging, limiters, one policy, registry, events.
        .library(name: "StreamsResilience", targets: ["StreamsResilience"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "StreamsNetworking", targets: ["StreamsNetworking"]),
        .library(name: "StreamsDecoding", targets: ["StreamsDecoding"]),
        .library(name: "StreamsRecovery", targets: ["StreamsRecovery"]),
        // The loopback HTTP servers and the integration suite that every HTTPTransport passes:
        // for the tests of transports in other packages (Transports/), not for apps.
        .library(name: "StreamsNetworkingTestSupport", targets: ["StreamsNetworkingTestSupport"]),
    ],
    targets: [
        .target(name: "Streams"),
        .target(name: "StreamsExt", dependencies: ["Streams"]),
        .target(name: "StreamsResilience", dependencies: ["Streams"]),
        .target(name: "StreamsTesting", dependencies: ["Streams", "StreamsResilience"]),
        .target(
            name: "StreamsNetworking",
            dependencies: ["Streams", "StreamsResilience", "StreamsDecoding", "StreamsRecovery"]),
        .target(name: "StreamsDecoding", dependencies: ["Streams"]),
        .target(name: "StreamsRecovery", dependencies: ["Streams", "StreamsExt"]),
        .target(
            name: "StreamsNetworkingTestSupport",
            dependencies: ["StreamsNetworking", "StreamsTesting"],
            path: "Tests/StreamsNetworkingTestSupport"),
        // The tests of Streams, StreamsExt (Extensions/) and StreamsResilience (Resilience/), which share
        // their contract catalogues and helpers.
        .testTarget(
            name: "StreamsTests", dependencies: ["Streams", "StreamsExt", "StreamsResilience", "StreamsTesting"]),
        .testTarget(
            name: "StreamsTestingTests", dependencies: ["Streams", "StreamsExt", "StreamsResilience", "StreamsTesting"]),
        .testTarget(
            name: "StreamsNetworkingTests",
            dependencies: [
                "Streams", "StreamsResilience", "StreamsNetworking", "StreamsDecoding", "StreamsRecovery", "StreamsTesting",
                "StreamsNetworkingTestSupport",
            ]),
        .testTarget(name: "StreamsDecodingTests", dependencies: ["Streams", "StreamsDecoding"]),
        .testTarget(
            name: "StreamsRecoveryTests", dependencies: ["Streams", "StreamsExt", "StreamsRecovery", "StreamsTesting"]),
        // Compiled with `import Streams` only, beside a stand-in for another library: a name that
        // Streams adds beside Combine's and that a user already declared is a build failure here.
        .target(name: "StreamsNamespaceFixtures", path: "Tests/StreamsNamespaceFixtures"),
        .testTarget(name: "StreamsNamespaceTests", dependencies: ["Streams", "StreamsNamespaceFixtures"]),
        // Threads hammering subjects and operators; bounded in count and time, run in every pass.
        .testTarget(
            name: "StreamsStressTests", dependencies: ["Streams", "StreamsExt", "StreamsResilience", "StreamsTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

if releaseSubset {
    package.targets.removeAll { $0.type == .test && !timingSuites.contains($0.name) }
}
