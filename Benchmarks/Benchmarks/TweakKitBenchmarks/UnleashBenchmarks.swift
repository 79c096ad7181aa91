import Benchmark
import Foundation
import TweakKit
import TweakKitUnleash

/// `Unleash.IsEnabled`: Unleash's `isEnabled` for a toggle with three strategies — a user list, a
/// flexible rollout behind three constraints (`IN`, `STR_STARTS_WITH` case-insensitive,
/// `SEMVER_GTE`) and a segment, and a remote-address range — for a rotating set of 1,000 contexts
/// that reach each strategy and none. `Unleash.Variant`: `getVariant` for the same toggle, three
/// weighted variants with payloads. `Unleash.ManagerFeatureEnabled`: `isEnabled` through
/// `TweakManager.isFeatureEnabled(_:context:)`. 1,000 decisions per measured iteration.
struct UnleashFixture {
    static let payload = #"""
    {"version": 2, "features": [{
      "name": "new-checkout", "enabled": true,
      "strategies": [
        {"name": "userWithId", "parameters": {"userIds": "user-1, user-2, user-3"}},
        {"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "default", "groupId": "new-checkout"},
         "constraints": [
           {"contextName": "appName", "operator": "IN", "values": ["web", "ios"]},
           {"contextName": "email", "operator": "STR_STARTS_WITH", "values": ["qa-", "staff-"], "caseInsensitive": true, "inverted": true},
           {"contextName": "version", "operator": "SEMVER_GTE", "value": "2.1.0"}
         ],
         "segments": [1]},
        {"name": "remoteAddress", "parameters": {"IPs": "10.0.0.0/8, 192.168.1.0/24"}}
      ],
      "variants": [
        {"name": "blue", "weight": 500, "stickiness": "default", "payload": {"type": "string", "value": "#00f"}},
        {"name": "green", "weight": 300, "stickiness": "default", "payload": {"type": "json", "value": "{\"shade\": 2}"}},
        {"name": "red", "weight": 200, "stickiness": "default"}
      ]
    }],
    "segments": [{"id": 1, "constraints": [{"contextName": "country", "operator": "NOT_IN", "values": ["RU", "KP"]}]}]}
    """#

    let features: UnleashFeatures
    let contexts: [UnleashContext]
    let evaluationContexts: [EvaluationContext]
    let manager: TweakManager

    init() throws {
        let data = Data(Self.payload.utf8)
        features = try UnleashFeatures(data: data, source: "benchmark", hostname: nil)
        let apps = ["web", "ios", "android"]
        let versions = ["2.0.9", "2.1.0", "3.0.0-beta.1", "1.9.9"]
        let addresses = ["10.1.2.3", "172.16.0.1", "192.168.1.7", "8.8.8.8"]
        contexts = (0..<1_000).map { index in
            UnleashContext(
                userId: "user-\(index)", sessionId: "session-\(index % 97)", remoteAddress: addresses[index % addresses.count],
                appName: apps[index % apps.count],
                properties: ["email": index % 10 == 0 ? "QA-\(index)@example.com" : "user\(index)@example.com",
                             "version": versions[index % versions.count], "country": index % 50 == 0 ? "RU" : "NL"]
            )
        }
        evaluationContexts = contexts.map { context in
            var attributes: [String: TweakContent] = ["remoteAddress": .string(context.remoteAddress ?? ""), "appName": .string(context.appName ?? "")]
            for (key, value) in context.properties { attributes[key] = .string(value) }
            return EvaluationContext(targetingKey: context.userId, attributes: attributes)
        }
        manager = TweakManager(tweakProviders: [try DocumentTweakProvider(data: data, format: .unleash(hostname: nil), name: "unleash")])
    }
}

func registerUnleashBenchmarks() {
    let configuration = perEvaluationConfiguration()
    Benchmark("Unleash.IsEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.features.isEnabled("new-checkout", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try UnleashFixture()
    }
    Benchmark("Unleash.Variant", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.features.variant("new-checkout", context: fixture.contexts[index % 1_000]))
        }
    } setup: {
        try UnleashFixture()
    }
    Benchmark("Unleash.ManagerFeatureEnabled", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.manager.isFeatureEnabled("new-checkout", context: fixture.evaluationContexts[index % 1_000]))
        }
    } setup: {
        try UnleashFixture()
    }
}
