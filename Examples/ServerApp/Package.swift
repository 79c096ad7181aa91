// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird service that reads its flags through TweakKit: from a shared store (SQLite or
// PostgreSQL) above the flags bundled with it, or the bundled flags alone. Each request's headers
// are its evaluation context, a feature rolls out to a percentage of users (flagd `fractional`),
// and evaluations are counted on /metrics (Prometheus text format).
let package = Package(
    name: "ServerApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TweakKit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // The service as a library, so its tests can start it on a real socket.
        .target(
            name: "ServerApp",
            dependencies: [
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "TweakKitFlagd", package: "TweakKit"),
                .product(name: "TweakKitMetrics", package: "TweakKit"),
                .product(name: "TweakKitStore", package: "TweakKit"),
                .product(name: "TweakKitStorePostgres", package: "TweakKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("flags.flagd.json")]
        ),
        // `swift run server-app`: reads its settings from the environment (ServerConfiguration).
        .executableTarget(
            name: "server-app",
            dependencies: ["ServerApp", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        .testTarget(
            name: "ServerAppTests",
            dependencies: [
                "ServerApp",
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "TweakKitStore", package: "TweakKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
