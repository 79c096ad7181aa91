// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird service that reads its flags through TweakKit: the evaluation context comes from
// each request's headers, a feature rolls out to a percentage of users (flagd `fractional`), and
// evaluations are counted on /metrics (Prometheus text format).
let package = Package(
    name: "ServerApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TweakKit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // The service as a library, so its test can start it on a real socket.
        .target(
            name: "ServerApp",
            dependencies: [
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "TweakKitFlagd", package: "TweakKit"),
                .product(name: "TweakKitMetrics", package: "TweakKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("flags.flagd.json")]
        ),
        .executableTarget(name: "server-app", dependencies: ["ServerApp"]),
        .testTarget(
            name: "ServerAppTests",
            dependencies: [
                "ServerApp",
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
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
