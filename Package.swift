// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "TweakKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TweakKit", targets: ["TweakKit"]),
        .library(name: "TweakKitLogging", targets: ["TweakKitLogging"]),
        .library(name: "TweakKitTesting", targets: ["TweakKitTesting"]),
        .executable(name: "tweak", targets: ["tweak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // The core: Foundation and Synchronization only.
        .target(name: "TweakKit"),
        // Bridges TweakKit's log hook to swift-log.
        .target(
            name: "TweakKitLogging",
            dependencies: ["TweakKit", .product(name: "Logging", package: "swift-log")]
        ),
        // Fixtures and task-scoped overrides for tests of code that reads tweaks.
        .target(name: "TweakKitTesting", dependencies: ["TweakKit"]),
        .executableTarget(
            name: "tweak",
            dependencies: ["TweakKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "TweakKitTests",
            dependencies: ["TweakKit", "TweakKitTesting", "TweakKitLogging", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "TweakCLITests", dependencies: ["tweak", "TweakKit"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
