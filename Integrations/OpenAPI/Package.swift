// swift-tools-version:6.0
import PackageDescription

// Swift OpenAPI Generator's clients through StreamsResilience: a ClientMiddleware that runs each
// operation through a resilience pipeline, classifying responses as StreamsNetworking does. A
// package of its own, so that the Streams package keeps zero dependencies.
let package = Package(
    name: "StreamsOpenAPI",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StreamsOpenAPI", targets: ["StreamsOpenAPI"])
    ],
    dependencies: [
        .package(name: "Streams", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "StreamsOpenAPI",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsNetworking", package: "Streams"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "StreamsOpenAPITests",
            dependencies: [
                "StreamsOpenAPI",
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsNetworking", package: "Streams"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
