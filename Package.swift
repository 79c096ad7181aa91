// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TweakKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TweakKit", targets: ["TweakKit"]),
        // JustTweak 10.1.1's API over TweakKit: a JustTweak app keeps `import JustTweak`.
        .library(name: "JustTweak", targets: ["JustTweak"]),
        .library(name: "TweakKitLogging", targets: ["TweakKitLogging"]),
        .library(name: "TweakKitTesting", targets: ["TweakKitTesting"]),
        .library(name: "TweakKitCodegen", targets: ["TweakKitCodegen"]),
        .library(name: "TweakKitFlagd", targets: ["TweakKitFlagd"]),
        .library(name: "TweakKitRemote", targets: ["TweakKitRemote"]),
        .library(name: "TweakKitServer", targets: ["TweakKitServer"]),
        .library(name: "TweakKitOptimizely", targets: ["TweakKitOptimizely"]),
        .library(name: "TweakKitFirebase", targets: ["TweakKitFirebase"]),
        .library(name: "TweakKitUnleash", targets: ["TweakKitUnleash"]),
        .library(name: "TweakKitGrowthBook", targets: ["TweakKitGrowthBook"]),
        .library(name: "TweakKitFlagsmith", targets: ["TweakKitFlagsmith"]),
        .library(name: "TweakKitLaunchDarkly", targets: ["TweakKitLaunchDarkly"]),
        .library(name: "TweakKitConfiguration", targets: ["TweakKitConfiguration"]),
        .library(name: "TweakKitMetrics", targets: ["TweakKitMetrics"]),
        .library(name: "TweakKitTracing", targets: ["TweakKitTracing"]),
        .library(name: "TweakKitStore", targets: ["TweakKitStore"]),
        .library(name: "TweakKitStorePostgres", targets: ["TweakKitStorePostgres"]),
        .executable(name: "tweak", targets: ["tweak"]),
        .plugin(name: "TweakAccessorPlugin", targets: ["TweakAccessorPlugin"]),
        .plugin(name: "GenerateTweakAccessors", targets: ["GenerateTweakAccessors"]),
    ],
    // Each integration's dependencies are resolved only when its trait is on (SE-0450): SwiftPM leaves a
    // package out of a dependent's resolution only when every target dependency on it is guarded by a
    // disabled trait, and it does not narrow resolution to the products a dependent uses. An app turns
    // the defaults off (`traits: []`) and names what it uses; see the README's table.
    traits: [
        .trait(name: "Logging", description: "TweakKitLogging: the log hook to swift-log."),
        .trait(
            name: "Remote",
            description: "TweakKitRemote on AsyncHTTPClient (the default transport) and RemoteTweakService (swift-service-lifecycle); without it, URLSession."
        ),
        // TweakKitStore's provider and store protocol need no trait; SQLiteTweakStore needs Store.
        .trait(name: "Store", description: "SQLiteTweakStore in TweakKitStore: the shared tweak store on SQLite (sqlite-nio)."),
        .trait(name: "StorePostgres", description: "TweakKitStorePostgres: the shared store on PostgreSQL (postgres-nio)."),
        // The editor writes to any VersionedTweakProvider (the core's protocol), so it needs no store.
        .trait(name: "Server", description: "TweakKitServer: the web editor and OFREP server (Hummingbird)."),
        .trait(name: "Metrics", description: "TweakKitMetrics: evaluation metrics through swift-metrics."),
        .trait(name: "Tracing", description: "TweakKitTracing: span events through swift-distributed-tracing."),
        .trait(name: "Configuration", description: "TweakKitConfiguration: swift-configuration both ways."),
        .trait(name: "Firebase", description: "TweakKitFirebase: Firebase Remote Config templates (swift-crypto)."),
        .trait(name: "GrowthBook", description: "TweakKitGrowthBook: GrowthBook features and experiments (swift-crypto)."),
        .trait(name: "Plugins", description: "The accessor plugins' generator tool (swift-argument-parser)."),
        .trait(
            name: "CLI", description: "The tweak tool: every integration it serves and evaluates, and swift-prometheus.",
            enabledTraits: ["Plugins", "Remote", "Server", "Store", "StorePostgres", "Metrics", "Firebase", "GrowthBook"]
        ),
        // Everything, so that `swift run tweak serve` and `swift test` in this repository build as they are.
        .default(enabledTraits: [
            "Logging", "Remote", "Store", "StorePostgres", "Server", "Metrics", "Tracing", "Configuration", "Firebase",
            "GrowthBook", "Plugins", "CLI",
        ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // `swift package generate-documentation`: the DocC catalogs (.ci/docs.sh).
        .package(url: "https://github.com/apple/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
    ],
    targets: [
        // The core: Foundation and Synchronization only.
        .target(name: "TweakKit"),
        // JustTweak 10.1.1's API (manager, providers, NotificationCenter, TweakValue) mapped onto TweakKit.
        .target(name: "JustTweak", dependencies: ["TweakKit"]),
        // Bridges TweakKit's log hook to swift-log.
        .target(
            name: "TweakKitLogging",
            dependencies: ["TweakKit", .product("Logging", from: "swift-log", when: "Logging")]
        ),
        // Fixtures and task-scoped overrides for tests of code that reads tweaks.
        .target(name: "TweakKitTesting", dependencies: ["TweakKit"]),
        // Targeting and percentage rollouts on OpenFeature flagd flag definitions.
        .target(name: "TweakKitFlagd", dependencies: ["TweakKit", "TweakKitEngineSupport"]),
        // Remote tweaks over HTTP: conditional polling, server-sent events, last-known-good; the OFREP client.
        // On URLSession (Foundation) with no other package; AsyncHTTPClient and the service only with `Remote`.
        .target(
            name: "TweakKitRemote",
            dependencies: [
                "TweakKit",
                .product("AsyncHTTPClient", from: "async-http-client", when: "Remote"),
                .product("ServiceLifecycle", from: "swift-service-lifecycle", when: "Remote"),
                .product("NIOCore", from: "swift-nio", when: "Remote"),
                .product("NIOHTTP1", from: "swift-nio", when: "Remote"),
            ]
        ),
        // What the decision engines share (not a product): the JSON value with JavaScript's rules, and
        // regular expressions with a bounded cost.
        .target(name: "TweakKitEngineSupport", dependencies: ["TweakKit"]),
        // Optimizely feature flags, A/B tests and rollouts decided locally from a datafile.
        .target(name: "TweakKitOptimizely", dependencies: ["TweakKit", "TweakKitEngineSupport"]),
        // Firebase Remote Config server templates evaluated locally.
        .target(
            name: "TweakKitFirebase",
            dependencies: ["TweakKit", "TweakKitEngineSupport", .product("Crypto", from: "swift-crypto", when: "Firebase")]
        ),
        // Unleash feature toggles decided locally from the client features payload.
        .target(name: "TweakKitUnleash", dependencies: ["TweakKit", "TweakKitEngineSupport"]),
        // GrowthBook features, experiments and sticky bucketing decided locally from the SDK payload.
        .target(
            name: "TweakKitGrowthBook",
            dependencies: [
                "TweakKit", "TweakKitEngineSupport", .product("Crypto", from: "swift-crypto", when: "GrowthBook"),
                .product("_CryptoExtras", from: "swift-crypto", when: "GrowthBook"),
            ]
        ),
        // Flagsmith flags decided locally from the environment document or an evaluation context (MD5 in the support target).
        .target(name: "TweakKitFlagsmith", dependencies: ["TweakKit", "TweakKitEngineSupport"]),
        // LaunchDarkly flags and segments decided locally from the server-side SDK data (SHA-1 in the support target).
        .target(name: "TweakKitLaunchDarkly", dependencies: ["TweakKit", "TweakKitEngineSupport"]),
        // Over HTTP too: the remote provider polling and streaming from a real server on 127.0.0.1.
        .testTarget(
            name: "TweakKitLaunchDarklyTests",
            dependencies: [
                "TweakKitLaunchDarkly", "TweakKitEngineSupport", "TweakKit", "TweakKitRemote", "TweakKitTestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The web editor and JSON API (Hummingbird 2).
        .target(
            name: "TweakKitServer",
            dependencies: [
                // /api/flags checks and evaluates flag definitions with the flagd engine (pure Swift, no other package).
                "TweakKit", "TweakKitFlagd",
                .product("Hummingbird", from: "hummingbird", when: "Server"),
                .product("HummingbirdCore", from: "hummingbird", when: "Server"),
                .product("NIOCore", from: "swift-nio", when: "Server"),
                .product("NIOHTTPTypes", from: "swift-nio-extras", when: "Server"),
                .product("ServiceLifecycle", from: "swift-service-lifecycle", when: "Server"),
            ],
            // The editor page, as web files: read once, at the first request for the page.
            resources: [.copy("Editor")]
        ),
        // swift-configuration both ways: tweaks read through a ConfigReader, config providers in the tweak stack.
        .target(
            name: "TweakKitConfiguration",
            dependencies: ["TweakKit", .product("Configuration", from: "swift-configuration", when: "Configuration")]
        ),
        // Evaluation, error and remote fetch metrics through swift-metrics (OpenTelemetry's feature-flag names).
        .target(
            name: "TweakKitMetrics",
            dependencies: ["TweakKit", .product("CoreMetrics", from: "swift-metrics", when: "Metrics")]
        ),
        // Span events for evaluations through swift-distributed-tracing.
        .target(
            name: "TweakKitTracing",
            dependencies: [
                "TweakKit", .product("Tracing", from: "swift-distributed-tracing", when: "Tracing"),
                .product("Instrumentation", from: "swift-distributed-tracing", when: "Tracing"),
            ]
        ),
        .testTarget(name: "TweakKitEngineSupportTests", dependencies: ["TweakKitEngineSupport", "TweakKit"]),
        .testTarget(
            name: "TweakKitObservabilityTests",
            dependencies: [
                "TweakKit", "TweakKitMetrics", "TweakKitTracing", "TweakKitFlagd", "TweakKitTesting",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // A shared tweak store (SQLite, embedded) with versions and history, and the provider that reads it live.
        .target(
            name: "TweakKitStore",
            dependencies: [
                // Flag definitions kept in the store are served through the flagd engine (pure Swift, no other package).
                "TweakKit", "TweakKitFlagd", .product("SQLiteNIO", from: "sqlite-nio", when: "Store"),
                .product("NIOPosix", from: "swift-nio", when: "Store"),
            ]
        ),
        // The shared store on PostgreSQL (postgres-nio, LISTEN/NOTIFY): its own target, so SQLite users never build it.
        .target(
            name: "TweakKitStorePostgres",
            dependencies: [
                "TweakKit", "TweakKitStore",
                .product("PostgresNIO", from: "postgres-nio", when: "StorePostgres"),
                // Signs NOTIFY's changes (postgres-nio builds it anyway).
                .product("Crypto", from: "swift-crypto", when: "StorePostgres"),
                .product("NIOSSL", from: "swift-nio-ssl", when: "StorePostgres"),
                .product("NIOCore", from: "swift-nio", when: "StorePostgres"),
                .product("Logging", from: "swift-log", when: "StorePostgres"),
            ]
        ),
        // The accessor generator and linter behind `tweak generate` and `tweak lint`.
        .target(name: "TweakKitCodegen", dependencies: ["TweakKit"]),
        // `tweak generate` and `tweak lint`, shared by the `tweak` tool and the plugins' tool.
        .target(
            name: "TweakCodegenCommands",
            dependencies: [
                "TweakKit", "TweakKitCodegen", .product("ArgumentParser", from: "swift-argument-parser", when: "Plugins"),
            ]
        ),
        .executableTarget(
            name: "tweak",
            dependencies: [
                "TweakKit", "TweakCodegenCommands", "TweakKitFlagd", "TweakKitRemote", "TweakKitServer", "TweakKitStore",
                "TweakKitStorePostgres", "TweakKitOptimizely", "TweakKitFirebase", "TweakKitUnleash", "TweakKitGrowthBook",
                "TweakKitMetrics",
                "TweakKitFlagsmith",
                "TweakKitLaunchDarkly",
                .product("ArgumentParser", from: "swift-argument-parser", when: "CLI"),
                .product("Prometheus", from: "swift-prometheus", when: "CLI"),
                .product("CoreMetrics", from: "swift-metrics", when: "CLI"),
                .product("Hummingbird", from: "hummingbird", when: "CLI"),
                .product("NIOCore", from: "swift-nio", when: "CLI"),
            ]
        ),
        // The plugins' generator: light, so adopting the plugin does not build the server or HTTP client.
        .executableTarget(
            name: "tweak-accessors",
            dependencies: ["TweakCodegenCommands", .product("ArgumentParser", from: "swift-argument-parser", when: "Plugins")]
        ),
        // Generates a target's typed tweak accessor at build time.
        .plugin(name: "TweakAccessorPlugin", capability: .buildTool(), dependencies: ["tweak-accessors"]),
        // `swift package generate-tweak-accessors`: writes the accessor into the sources, to commit.
        .plugin(
            name: "GenerateTweakAccessors",
            capability: .command(
                intent: .custom(verb: "generate-tweak-accessors", description: "Generate typed tweak accessors into each target's sources"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated accessor files into the target's Generated folder")]
            ),
            dependencies: ["tweak-accessors"]
        ),
        .testTarget(
            name: "TweakKitTests",
            dependencies: ["TweakKit", "TweakKitTesting", "TweakKitLogging", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Fixtures")]
        ),
        // A throwaway PostgreSQL cluster (or TWEAKKIT_POSTGRES_URL) for the package's own tests (not a product).
        .target(
            name: "TweakKitPostgresTestSupport",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "TweakKitStoreTests",
            dependencies: [
                "TweakKitStore", "TweakKitStorePostgres", "TweakKitPostgresTestSupport", "TweakKit", "TweakKitFlagd",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TweakCLITests",
            dependencies: [
                "tweak", "TweakKit", "TweakKitTestSupport", "TweakKitPostgresTestSupport", .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // JustTweak 10.1.1's API through `import JustTweak`, spelled as JustTweak code spells it
        // (no ExistentialAny: `TweakValue` bare), and its interop with TweakKit.
        .testTarget(name: "JustTweakCompatibilityTests", dependencies: ["JustTweak", "TweakKit"], resources: [.copy("Resources")]),
        // The code of JustTweak's README, as published, with `import JustTweak`.
        .testTarget(name: "JustTweakReadmeTests", dependencies: ["JustTweak", "TweakKit"], resources: [.copy("Resources")]),
        .testTarget(name: "TweakKitCodegenTests", dependencies: ["TweakKitCodegen", "TweakKit"], resources: [.copy("Golden")]),
        .testTarget(name: "TweakKitFlagdTests", dependencies: ["TweakKitFlagd", "TweakKit", "TweakKitTesting", "TweakKitTestSupport"]),
        .testTarget(
            name: "TweakKitConfigurationTests",
            dependencies: [
                "TweakKitConfiguration", "TweakKit", "TweakKitFlagd", "TweakKitTesting",
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        // OFREP end to end: the client provider against the server routes on a real socket, and
        // (under .ci/ofrep-client.sh) against Tests/OFREP/ofrep_server.py, a server not TweakKit's.
        .testTarget(
            name: "TweakKitOFREPTests",
            dependencies: [
                "TweakKitRemote", "TweakKitServer", "TweakKit", "TweakKitFlagd", "TweakKitTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TweakKitServerTests",
            dependencies: [
                "TweakKitServer", "TweakKit", "TweakKitFlagd", "TweakKitRemote", "TweakKitStore", "TweakKitStorePostgres", "TweakKitPostgresTestSupport",
                "TweakKitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "TweakKitOptimizelyTests",
            dependencies: [
                "TweakKitOptimizely", "TweakKitEngineSupport", "TweakKit", "TweakKitRemote", "TweakKitTestSupport", "TweakKitTesting",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Datafiles")]
        ),
        .testTarget(
            name: "TweakKitFirebaseTests",
            dependencies: [
                "TweakKitFirebase", "TweakKitEngineSupport", "TweakKit", "TweakKitRemote", "TweakKitTestSupport", "TweakKitTesting",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Templates")]
        ),
        .testTarget(
            name: "TweakKitUnleashTests",
            dependencies: [
                "TweakKitUnleash", "TweakKit", "TweakKitRemote", "TweakKitTestSupport", "TweakKitTesting",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TweakKitGrowthBookTests",
            dependencies: [
                "TweakKitGrowthBook", "TweakKit", "TweakKitRemote", "TweakKitTestSupport", "TweakKitTesting",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TweakKitFlagsmithTests",
            dependencies: ["TweakKitFlagsmith", "TweakKitEngineSupport", "TweakKit", "TweakKitTesting"]
        ),
        // A real HTTP server for the package's own tests (not a product).
        .target(
            name: "TweakKitTestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TweakKitRemoteTests",
            dependencies: [
                "TweakKitRemote", "TweakKit", "TweakKitFlagd", "TweakKitTestSupport", "TweakKitTesting",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

extension Target.Dependency {
    /// A product of another package that a target uses only when `trait` is on. A dependent that leaves
    /// the trait off does not resolve the package, provided every target dependency on it is guarded so.
    static func product(_ name: String, from package: String, when trait: String) -> Self {
        .product(name: name, package: package, condition: .when(traits: [trait]))
    }
}

// JustTweak's test targets are left out: they compile code written as JustTweak code is (bare `TweakValue`).
for target in package.targets where target.type != .plugin && !(target.type == .test && target.name.hasPrefix("JustTweak")) {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}

// ThreadSanitizer's build in CI (.ci/tsan.sh, which sets TWEAKKIT_TSAN_SUITES) is the package again,
// instrumented, for a few test suites: the manifest then keeps only the test targets it names and
// the targets they need, so the instrumented build leaves out the engines, the tool and the other
// tests. Nothing else sets it.
if let suites = Context.environment["TWEAKKIT_TSAN_SUITES"] {
    let tested = Set(suites.split(separator: ",").map(String.init))
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var pending = Array(tested)
    while let name = pending.popLast() {
        guard let target = byName[name], needed.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        !((product as? Product.Library)?.targets.allSatisfy(needed.contains) ?? false)
    }
}
