// swift-tools-version: 6.0
import PackageDescription

// libFuzzer harnesses for TweakKit's parsers and evaluators, a package of their own so that
// `swift test` never builds them. Build and run with `.ci/fuzz.sh` (see the README's Reliability
// section); each executable takes libFuzzer's usual arguments.
let package = Package(
    name: "TweakKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "TweakKit", path: "..")],
    targets: [
        // libFuzzer's driver entry point, declared for Swift.
        .target(name: "CLibFuzzer"),
        // Splits an input into a document and an evaluation context, exercises every answer, runs libFuzzer.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "TweakKit", package: "TweakKit")]),
        // Tweaks files (JustTweak format and toggle lists), overrides-style JSON, value conversions.
        .executableTarget(name: "FuzzTweaksFile", dependencies: ["FuzzSupport", .product(name: "TweakKit", package: "TweakKit")]),
        // flagd definitions, compiled and evaluated with a fuzzed context.
        .executableTarget(name: "FuzzFlagd", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitFlagd", package: "TweakKit"),
        ]),
        // Optimizely datafiles and decisions for a fuzzed user.
        .executableTarget(name: "FuzzOptimizely", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitOptimizely", package: "TweakKit"),
        ]),
        // Firebase Remote Config templates evaluated with fuzzed signals.
        .executableTarget(name: "FuzzFirebase", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitFirebase", package: "TweakKit"),
        ]),
        // Unleash client features payloads, every toggle decided for fuzzed contexts.
        .executableTarget(name: "FuzzUnleash", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitUnleash", package: "TweakKit"),
        ]),
        // Flagsmith environment documents and evaluation contexts, every flag decided for fuzzed identities.
        .executableTarget(name: "FuzzFlagsmith", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitFlagsmith", package: "TweakKit"),
        ]),
        // LaunchDarkly flag data, every flag decided for fuzzed contexts (single, multi-kind, raw JSON).
        .executableTarget(name: "FuzzLaunchDarkly", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitLaunchDarkly", package: "TweakKit"),
        ]),
        // GrowthBook SDK payloads (plain and encrypted), every feature evaluated for fuzzed contexts.
        .executableTarget(name: "FuzzGrowthBook", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitGrowthBook", package: "TweakKit"),
        ]),
        // Remote payloads as RemoteTweakProvider decodes them: JSON, then flagd or a tweaks file.
        .executableTarget(name: "FuzzRemotePayload", dependencies: [
            "FuzzSupport", .product(name: "TweakKit", package: "TweakKit"), .product(name: "TweakKitFlagd", package: "TweakKit"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
