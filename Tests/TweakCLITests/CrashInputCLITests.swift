import Foundation
import Testing
import TweakKit

/// Issue 17's reproductions through the released command, which the crash inputs used to kill.
@Suite("tweak: crash inputs give an answer or a clear error")
struct CrashInputCLITests {
    let flags = packageRoot.appendingPathComponent("Examples/flags.flagd.json").path

    func crashInput(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/CrashInputs").appendingPathComponent(name).path
    }

    @Test("tweak eval with appVersion 1e20 in the context answers (was a trap formatting the number)")
    func hugeContextNumber() async throws {
        let result = try await tweak("eval", "--flags", flags, "checkout.theme", "--context", #"{"targetingKey":"u1","appVersion":1e20}"#)
        #expect(result.status == 0, "\(result.errors)")
        guard case .object(let details) = try TweakContent(jsonText: result.output) else {
            Issue.record("not a JSON object: \(result.output)")
            return
        }
        #expect(details["value"] == "light")
    }

    @Test("tweak eval on a flag file with a -9223372036854775808 variant reports that flag and evaluates the others")
    func intMinVariant() async throws {
        let broken = try await tweak("eval", "--flags", crashInput("flagd-int-min-variant.flagd.json"), "int-min")
        #expect(broken.status == 0, "\(broken.errors)")
        #expect(broken.output.contains("PARSE_ERROR"), "\(broken.output)")
        let healthy = try await tweak("eval", "--flags", crashInput("flagd-int-min-variant.flagd.json"), "healthy")
        #expect(healthy.status == 0)
        guard case .object(let result) = try TweakContent(jsonText: healthy.output) else {
            Issue.record("not a JSON object: \(healthy.output)")
            return
        }
        #expect(result["value"] == true, "\(healthy.output)")
    }

    @Test("tweak validate names the $ref problems of the reference bombs", arguments: [
        ("flagd-ref-chain.flagd.json", "$ref chains deeper than 64 evaluators"),
        ("flagd-ref-doubling.flagd.json", "more than 100000 operations and values"),
        ("flagd-ref-cycle.flagd.json", "refers to itself through a → b → a"),
    ])
    func referenceBombs(name: String, message: String) async throws {
        let result = try await tweak("validate", crashInput(name))
        #expect(result.status == 1)
        #expect((result.output + result.errors).contains(message), "\(result.output)\(result.errors)")
    }
}
