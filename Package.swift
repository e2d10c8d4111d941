// swift-tools-version:6.0
import PackageDescription

// Streams has no package dependencies: everything that needs one (the benchmark harness,
// OpenCombine as a peer, an HTTP server framework) lives in Benchmarks/ or Examples/.
let package = Package(
    name: "Streams",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "StreamsNetworking", targets: ["StreamsNetworking"]),
    ],
    targets: [
        .target(name: "Streams"),
        .target(name: "StreamsTesting", dependencies: ["Streams"]),
        .target(name: "StreamsNetworking", dependencies: ["Streams"]),
        .executableTarget(name: "streams-example", dependencies: ["Streams"], path: "Sources/StreamsExample"),
        .executableTarget(
            name: "retry-simulation", dependencies: ["Streams", "StreamsTesting"], path: "Sources/RetrySimulation"),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
        .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"]),
        .testTarget(name: "StreamsNetworkingTests", dependencies: ["Streams", "StreamsNetworking", "StreamsTesting"]),
        // Threads hammering subjects and operators; bounded in count and time, run in every pass.
        .testTarget(name: "StreamsStressTests", dependencies: ["Streams", "StreamsTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
