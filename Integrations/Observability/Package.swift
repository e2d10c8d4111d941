// swift-tools-version:6.0
import PackageDescription

// StreamsResilience's events wired to swift-metrics, swift-log and swift-distributed-tracing: one
// observer per pipeline (or registry key) that counts, logs and traces what its stages decide. A
// package of its own, so that the Streams package keeps zero dependencies.
let package = Package(
    name: "StreamsObservability",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StreamsObservability", targets: ["StreamsObservability"])
    ],
    dependencies: [
        .package(name: "Streams", path: "../.."),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "StreamsObservability",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "Streams", package: "Streams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "StreamsObservabilityTests",
            dependencies: [
                "StreamsObservability",
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
