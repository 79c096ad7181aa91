import Foundation
import Testing
import TweakKit

@Suite("tweak eval --firebase-template")
struct FirebaseEvalTests {
    let template = packageRoot.appendingPathComponent("Tests/TweakKitFirebaseTests/Templates/checkout.json").path

    func evaluate(_ arguments: String...) async throws -> [String: TweakContent] {
        let result = try await offThePool { try tweak(["eval", "--firebase-template", template] + arguments) }
        #expect(result.status == 0, "\(result.errors)")
        guard case .object(let object) = try TweakContent(jsonText: result.output) else {
            Issue.record("not a JSON object: \(result.output)")
            return [:]
        }
        return object
    }

    @Test("prints the value, its source and Firebase's conversions")
    func evaluates() async throws {
        let staff = #"{"targetingKey": "user-1", "email": "ann@example.org"}"#
        await #expect(try evaluate("checkout__enabled", "--context", staff) == [
            "key": "checkout__enabled", "value": "true", "source": "remote", "asBool": true, "asNumber": 0,
        ])
        let items = try await evaluate("checkout__max_items", "--context", staff)
        #expect(items["value"] == "2.5")
        #expect(items["asNumber"] == 2.5)
        let fallback = try await evaluate("checkout__max_items", "--context", #"{"targetingKey": "user-1"}"#)
        #expect(fallback["value"] == "10")
        #expect(fallback["asNumber"] == 10)
        // user-2 is in the 50% rollout.
        await #expect(try evaluate("checkout__enabled", "--context", #"{"targetingKey": "user-2", "app_version": "5.3"}"#)["asBool"] == true)
        await #expect(try evaluate("checkout__enabled", "--context", #"{"targetingKey": "user-1", "app_version": 5.3}"#)["value"] == "false")
    }

    @Test("useInAppDefault gives --in-app-default (source default), or a static value without one")
    func inAppDefault() async throws {
        let oldApp = #"{"targetingKey": "user-2", "app_version": "4.9"}"#
        await #expect(try evaluate("checkout__enabled", "--context", oldApp, "--in-app-default", "yes") == [
            "key": "checkout__enabled", "value": "yes", "source": "default", "asBool": true, "asNumber": 0,
        ])
        await #expect(try evaluate("checkout__enabled", "--context", oldApp) == [
            "key": "checkout__enabled", "value": "", "source": "static", "asBool": false, "asNumber": 0,
        ])
        await #expect(try evaluate("no_such_parameter", "--in-app-default", "0x10")["asNumber"] == 16)
        await #expect(try evaluate("no_such_parameter")["source"] == "static")
    }

    @Test("a malformed template is an error with its place")
    func malformed() async throws {
        let file = try temporaryDirectory().appendingPathComponent("bad.json")
        try Data(#"{"parameters": {"p": {"defaultValue": 5}}}"#.utf8).write(to: file)
        let result = try await tweak("eval", "--firebase-template", file.path, "p")
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains(#"bad.json:1:39: parameter "p": defaultValue must be an object such as {"value": "…"} or {"useInAppDefault": true}, not an Int"#), "\(result.errors)")
        let missing = try await tweak("eval", "--firebase-template", "/nonexistent/template.json", "p")
        #expect(missing.status == 1)
        #expect(missing.errors.contains("/nonexistent/template.json: file not found"))
    }
}
