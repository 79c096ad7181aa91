// swift-tools-version: 6.0
import PackageDescription

// A command-line tool whose typed tweak accessor, CheckoutTweaks, is generated at build time from
// Sources/checkout/Tweaks.json by TweakAccessorPlugin.
let package = Package(
    name: "CLIApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TweakKit", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "checkout",
            dependencies: [
                .product(name: "TweakKit", package: "TweakKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Tweaks.json"), .copy("config.json")],
            plugins: [.plugin(name: "TweakAccessorPlugin", package: "TweakKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
