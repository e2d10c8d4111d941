// swift-tools-version:6.0
import PackageDescription

// The AsyncHTTPClient transport: StreamsNetworking's request publisher, validation, decoding,
// retry, Authenticator and redirect policy over AsyncHTTPClient's HTTPClient, for servers. A
// package of its own, so that the Streams package keeps zero dependencies; its tests run the
// Streams package's loopback transport suite against this transport.
let package = Package(
    name: "StreamsAsyncHTTPClient",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StreamsAsyncHTTPClient", targets: ["StreamsAsyncHTTPClient"])
    ],
    dependencies: [
        .package(name: "Streams", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        // For the tests' TLS loopback server only; AsyncHTTPClient depends on it already.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "StreamsAsyncHTTPClient",
            dependencies: [
                .product(name: "StreamsNetworking", package: "Streams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .testTarget(
            name: "StreamsAsyncHTTPClientTests",
            dependencies: [
                "StreamsAsyncHTTPClient",
                .product(name: "StreamsNetworking", package: "Streams"),
                .product(name: "StreamsNetworkingTestSupport", package: "Streams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
