// swift-tools-version: 6.0
import PackageDescription

// An app that reads its tweaks through an accessor generated at build time by TweakAccessorPlugin.
let package = Package(
    name: "TweakAccessorExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TweakKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TweakAccessorExample",
            dependencies: [.product(name: "TweakKit", package: "TweakKit")],
            resources: [.copy("Tweaks.json"), .copy("config.json")],
            plugins: [.plugin(name: "TweakAccessorPlugin", package: "TweakKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
