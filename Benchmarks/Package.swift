// swift-tools-version: 6.3
// Benchmarks for TweakKit, kept in their own package so the library does not depend on
// ordo-one/benchmark. Run everything with `Benchmarks/run`.
import PackageDescription

let package = Package(
    name: "TweakKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TweakKit", path: ".."),
        // ordo-one/benchmark (formerly package-benchmark; its plugin warns about the old name).
        // Only the malloc interposer trait: it gives the `mallocCountTotal` metric. The default
        // "RuntimeInterposer" trait (ARC counters on Linux/Swift 6.3) is left off: its package,
        // swift-runtime-interposer, is not available here.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // replica-followers' HTTP client, with a connection pool sized for its followers.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The plugin discovers benchmark executables by their folder: Benchmarks/<target>.
        .executableTarget(
            name: "TweakKitBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "JustTweak", package: "TweakKit"),
                .product(name: "TweakKitFlagd", package: "TweakKit"),
                .product(name: "TweakKitOptimizely", package: "TweakKit"),
                .product(name: "TweakKitUnleash", package: "TweakKit"),
                .product(name: "TweakKitFlagsmith", package: "TweakKit"),
                .product(name: "TweakKitLaunchDarkly", package: "TweakKit"),
                .product(name: "TweakKitGrowthBook", package: "TweakKit"),
                .product(name: "TweakKitFirebase", package: "TweakKit"),
                .product(name: "TweakKitMetrics", package: "TweakKit"),
                .product(name: "TweakKitStore", package: "TweakKit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Benchmarks/TweakKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a benchmark of the plugin's: store-latency --followers starts it (providers following
        // a PostgreSQL store, each on connections of its own, in one process).
        .executableTarget(
            name: "store-followers",
            dependencies: [
                .product(name: "TweakKitStore", package: "TweakKit"),
                .product(name: "TweakKitStorePostgres", package: "TweakKit"),
            ],
            path: "StoreFollowers"
        ),
        // Benchmarks/fleet's followers: ReplicaTweakProviders following `tweak serve` replicas over
        // HTTP, many in one process.
        .executableTarget(
            name: "replica-followers",
            dependencies: [
                .product(name: "TweakKitRemote", package: "TweakKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "ReplicaFollowers"
        ),
    ],
    swiftLanguageModes: [.v6]
)
