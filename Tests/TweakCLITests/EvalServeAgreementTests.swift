import Foundation
import Testing

/// `tweak eval` and `tweak serve`'s OFREP answer the same context the same way: the targeting key
/// is Unleash's `userId` and GrowthBook's `id` attribute in both.
@Suite("tweak eval and tweak serve map targetingKey alike", .serialized)
struct EvalServeAgreementTests {
    static let unleash = #"""
    {"version": 2, "features": [
      {"name": "vip", "enabled": true, "strategies": [{"name": "userWithId", "parameters": {"userIds": "u1"}}]}
    ]}
    """#

    static let growthBook = #"""
    {"status": 200, "features": {
      "vip": {"defaultValue": false, "rules": [{"id": "fr_vip", "condition": {"id": "u1"}, "force": true}]}
    }, "savedGroups": {}}
    """#

    struct Case: Sendable, CustomTestStringConvertible {
        var option: String
        var payload: String
        var ofrepKey: String
        var cliField: String
        var testDescription: String { option }
    }

    static let cases = [
        Case(option: "--unleash-features", payload: unleash, ofrepKey: "vip.enabled", cliField: "enabled"),
        Case(option: "--growthbook-features", payload: growthBook, ofrepKey: "vip.value", cliField: "value"),
    ]

    @Test("the same targetingKey decides the same in tweak eval and in OFREP", arguments: cases)
    func sameAnswer(_ format: Case) async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("payload.json")
        try Data(format.payload.utf8).write(to: file)
        let server = try await ServeProcess.start(
            arguments: ["--token", "agreement-token", format.option, file.path, "--overrides", directory.appendingPathComponent("o.json").path])
        defer { server.stop() }
        for (user, expected) in [("u1", true), ("u2", false)] {
            let run = try await tweak("eval", format.option, file.path, "vip", "--context", #"{"targetingKey": "\#(user)"}"#)
            #expect(run.status == 0, "\(run.errors)")
            let cli = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            let port = server.port
            let answer = try await offThePool {
                try httpExchange(port: port, "POST", "/ofrep/v1/evaluate/flags/\(format.ofrepKey)", body: #"{"context": {"targetingKey": "\#(user)"}}"#)
            }
            #expect(answer.status == 200, "\(answer.body)")
            let ofrep = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            #expect(ofrep?["value"] as? Bool == expected, "OFREP for \(user): \(answer.body)")
            #expect(cli?[format.cliField] as? Bool == expected, "tweak eval for \(user): \(run.output)")
        }
    }

    @Test("a targetingKey that is not a string is refused by tweak eval, as OFREP refuses it", arguments: cases)
    func nonStringKey(_ format: Case) async throws {
        let file = try temporaryDirectory().appendingPathComponent("payload.json")
        try Data(format.payload.utf8).write(to: file)
        let run = try await tweak("eval", format.option, file.path, "vip", "--context", #"{"targetingKey": 7}"#)
        #expect(run.status != 0)
        #expect(run.errors.contains("targetingKey in the context must be a string"), "\(run.errors)")
    }

    @Test("GrowthBook: an id in attributes wins over targetingKey, as in lookups")
    func growthBookIDWins() async throws {
        let file = try temporaryDirectory().appendingPathComponent("payload.json")
        try Data(Self.growthBook.utf8).write(to: file)
        let run = try await tweak("eval", "--growthbook-features", file.path, "vip", "--context", #"{"targetingKey": "u1", "attributes": {"id": "u2"}}"#)
        #expect(run.status == 0, "\(run.errors)")
        let cli = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(cli?["value"] as? Bool == false)
    }
}
