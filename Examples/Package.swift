// swift-tools-version:6.0
import PackageDescription

// The examples: the reference sign-up server (on Hummingbird), the sign-up form's client and the
// demo script that validates the form through Streams against any server of the sign-up
// protocol; the error-handling articles' own examples on a console (ErrorHandlingArticles); the typed
// catalogue client (StreamsNetworking end to end) and its server; the fleet simulation of the resilience
// policies, and the resilience events as logs, metrics and traces through StreamsObservability
// (Integrations/Observability). Their own package, so that the Streams library keeps zero dependencies.
let package = Package(
    name: "StreamsExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Streams", path: "../"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Both come with Hummingbird; named here because the server's handle and its tests use them.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The resilience events as logs, metrics and traces (observability-demo), with the test
        // backends of swift-metrics and swift-distributed-tracing that the demo prints.
        .package(name: "StreamsObservability", path: "../Integrations/Observability"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "SignUpServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "SignUpClient",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsNetworking", package: "Streams"),
            ]),
        .target(
            name: "SignUpDemo",
            dependencies: [
                "SignUpClient", .product(name: "StreamsExt", package: "Streams"),
                .product(name: "StreamsRecovery", package: "Streams"),
            ]),
        .executableTarget(name: "signup-server", dependencies: ["SignUpServer"]),
        .executableTarget(name: "signup-demo", dependencies: ["SignUpServer", "SignUpDemo"]),
        .executableTarget(name: "streams-example", dependencies: [.product(name: "Streams", package: "Streams")]),
        .executableTarget(
            name: "retry-simulation",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ]),
        .target(
            name: "FleetSimulation",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ]),
        .executableTarget(name: "fleet-simulation", dependencies: ["FleetSimulation"]),
        .testTarget(name: "FleetSimulationTests", dependencies: ["FleetSimulation"]),
        .executableTarget(
            name: "observability-demo",
            dependencies: [
                .product(name: "StreamsObservability", package: "StreamsObservability"),
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "Streams", package: "Streams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
        .executableTarget(
            name: "resilient-decoding-demo",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsDecoding", package: "Streams"),
            ]),
        .target(
            name: "ErrorHandlingArticles",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsRecovery", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ]),
        .executableTarget(name: "error-handling-articles", dependencies: ["ErrorHandlingArticles"]),
        .testTarget(name: "ErrorHandlingArticlesTests", dependencies: ["ErrorHandlingArticles"]),
        .target(
            name: "CatalogServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "CatalogClient",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsNetworking", package: "Streams"),
                .product(name: "StreamsDecoding", package: "Streams"),
                .product(name: "StreamsRecovery", package: "Streams"),
            ]),
        .executableTarget(name: "catalog-demo", dependencies: ["CatalogServer", "CatalogClient"]),
        .testTarget(name: "CatalogTests", dependencies: ["CatalogServer", "CatalogClient"]),
        .testTarget(
            name: "SignUpTests",
            dependencies: [
                .product(name: "StreamsExt", package: "Streams"),
                "SignUpServer", "SignUpClient", "SignUpDemo",
                .product(name: "StreamsTesting", package: "Streams"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
