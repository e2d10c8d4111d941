// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers that read untrusted input. Its own package, so that the
// root package keeps no dependencies; build and run it with `Fuzz/run` and `Fuzz/replay`.
let package = Package(
    name: "StreamsFuzz",
    dependencies: [.package(name: "Streams", path: "..")],
    targets: [
        .executableTarget(
            name: "fuzz-retry-after",
            dependencies: [.product(name: "Streams", package: "Streams")],
            path: "Sources/RetryAfterFuzzer"),
        .executableTarget(
            name: "fuzz-network-response",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsNetworking", package: "Streams"),
            ],
            path: "Sources/NetworkResponseFuzzer"),
        .executableTarget(
            name: "fuzz-error-body",
            dependencies: [.product(name: "StreamsNetworking", package: "Streams")],
            path: "Sources/ErrorBodyFuzzer"),
        .executableTarget(
            name: "fuzz-rate-limit",
            dependencies: [.product(name: "StreamsNetworking", package: "Streams")],
            path: "Sources/RateLimitFuzzer"),
        .executableTarget(
            name: "fuzz-resilient-decoding",
            dependencies: [.product(name: "StreamsDecoding", package: "Streams")],
            path: "Sources/ResilientDecodingFuzzer"),
    ],
    swiftLanguageModes: [.v6]
)
