// swift-tools-version:6.1
import PackageDescription

// The benchmark package: its own package so that the Streams library keeps zero dependencies.
// The same workload source (Sources/Workloads/Workloads.swift) is compiled twice, once against
// Streams and once against OpenCombine, so both libraries run identical code.
let package = Package(
    name: "StreamsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Streams", path: "../"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "StreamsWorkloads",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsExt", package: "Streams"),
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ],
            swiftSettings: [.define("STREAMS")]),
        .target(
            name: "OpenCombineWorkloads",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            swiftSettings: [.define("OPENCOMBINE")]),
        .target(name: "Baseline"),
        // The independent harness: the same source per library, each in a module of its own, in
        // Swift 5 language mode, as a client outside the repository would build it.
        .target(
            name: "IndependentStreamsWorkloads",
            dependencies: [.product(name: "Streams", package: "Streams")],
            swiftSettings: [.define("STREAMS"), .swiftLanguageMode(.v5)]),
        .target(
            name: "IndependentOpenCombineWorkloads",
            dependencies: [.product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "IndependentRaw", swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "independent",
            dependencies: ["IndependentStreamsWorkloads", "IndependentOpenCombineWorkloads", "IndependentRaw"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "AsyncWorkloads",
            dependencies: [.product(name: "AsyncAlgorithms", package: "swift-async-algorithms")]),
        .executableTarget(
            name: "compare",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsExt", package: "Streams"),
                "StreamsWorkloads", "OpenCombineWorkloads", "AsyncWorkloads", "Baseline",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]),
        .executableTarget(
            name: "async-resilience",
            dependencies: [
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]),
        .executableTarget(name: "ratio-chart"),
        .executableTarget(
            name: "decoding-cost",
            dependencies: [.product(name: "StreamsDecoding", package: "Streams")]),
        .executableTarget(
            name: "scaling",
            dependencies: [
                .product(name: "StreamsResilience", package: "Streams"),
                .product(name: "StreamsExt", package: "Streams"),
                "StreamsWorkloads", "OpenCombineWorkloads",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]),
        .executableTarget(
            name: "profile",
            dependencies: ["StreamsWorkloads", "OpenCombineWorkloads"]),
        .executableTarget(
            name: "StreamsBenchmarks",
            dependencies: [
                "StreamsWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StreamsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ],
    swiftLanguageModes: [.v6]
)
