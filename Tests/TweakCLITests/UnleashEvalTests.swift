import Foundation
import Testing

private let payload = #"""
{"version": 2, "features": [
  {"name": "checkout", "enabled": true,
   "strategies": [{"name": "flexibleRollout", "parameters": {"rollout": "100", "stickiness": "default", "groupId": "checkout"},
                   "constraints": [{"contextName": "plan", "operator": "IN", "values": ["pro"]}]}],
   "variants": [{"name": "blue", "weight": 1000, "stickiness": "default", "payload": {"type": "string", "value": "#00f"}}]},
  {"name": "off", "enabled": false, "strategies": []}
]}
"""#

@Suite("tweak eval --unleash-features")
struct UnleashEvalCLITests {
    func payloadFile() async throws -> String {
        let file = try temporaryDirectory().appendingPathComponent("features.json")
        try Data(payload.utf8).write(to: file)
        return file.path
    }

    func decision(_ file: String, _ toggle: String, _ context: String) async throws -> [String: Any] {
        let result = try await tweak("eval", "--unleash-features", file, toggle, "--context", context)
        #expect(result.status == 0, "\(result.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return try #require(object, "not a JSON object: \(result.output)")
    }

    @Test("prints enabled and the variant in Unleash's shape; the context uses Unleash's field names")
    func decides() async throws {
        let file = try await payloadFile()
        let on = try await decision(file, "checkout", #"{"userId": "u1", "properties": {"plan": "pro"}}"#)
        #expect(on["enabled"] as? Bool == true)
        let variant = try #require(on["variant"] as? [String: Any])
        #expect(variant["name"] as? String == "blue")
        #expect(variant["enabled"] as? Bool == true)
        #expect(variant["feature_enabled"] as? Bool == true)
        #expect((variant["payload"] as? [String: Any])?["value"] as? String == "#00f")

        let off = try await decision(file, "checkout", #"{"userId": "u1", "plan": "free"}"#)
        #expect(off["enabled"] as? Bool == false)
        #expect((off["variant"] as? [String: Any])?["name"] as? String == "disabled")
        #expect((off["variant"] as? [String: Any])?["payload"] == nil)

        let lines = try temporaryDirectory().appendingPathComponent("contexts.jsonl")
        try Data("{\"userId\": \"a\", \"plan\": \"pro\"}\n{\"userId\": \"b\"}\n".utf8).write(to: lines)
        let batch = try await tweak("eval", "--unleash-features", file, "checkout", "--contexts", lines.path)
        #expect(batch.status == 0, "\(batch.errors)")
        let results = batch.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(results.map { $0?["enabled"] as? Bool } == [true, false])
    }

    @Test("a bad payload, a bad context and an unknown toggle are clear")
    func errors() async throws {
        let broken = try temporaryDirectory().appendingPathComponent("broken.json")
        try Data(#"{"features": [{"name": "a", "enabled": true, "strategies": [{"parameters": {}}]}]}"#.utf8).write(to: broken)
        var result = try await tweak("eval", "--unleash-features", broken.path, "a")
        #expect(result.status == 1)
        #expect(result.errors.contains("broken.json:1:61: a strategy of feature a has no \"name\""))
        let file = try await payloadFile()
        result = try await tweak("eval", "--unleash-features", file, "checkout", "--context", "[1]")
        #expect(result.status != 0)
        #expect(result.errors.contains("must be a JSON object"))
        result = try await tweak("eval", "--unleash-features", file, "nope", "--context", "{}")
        #expect(result.status == 0)
        #expect(result.errors.contains("has no toggle \"nope\""))
    }

    @Test("tweak validate recognises the payload")
    func validate() async throws {
        let result = try await tweak("validate", try payloadFile())
        #expect(result.status == 0)
        #expect(result.output.contains("OK, 2 Unleash toggles"))
    }
}
