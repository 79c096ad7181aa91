import Foundation
import Testing

/// The flag file options (`--flags`, `--optimizely-datafile`, `--firebase-template`,
/// `--unleash-features`, `--growthbook-features`) as swift-argument-parser reads them, with no
/// rewriting of the command line: spellings, repetition and the order that decides priority.
@Suite("tweak's flag file options")
struct FlagFileOptionsTests {
    /// Files that each hold `checkout.enabled`: on in `flagdOn` and `growthBook`, off in `flagdOff` and `unleash`.
    struct Files {
        let flagdOn: String
        let flagdOff: String
        let unleash: String
        let growthBook: String
    }

    func files() throws -> Files {
        let directory = try temporaryDirectory()
        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        func flagd(_ variant: String) -> String {
            #"{"flags": {"checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "\#(variant)"}}}"#
        }
        return Files(
            flagdOn: try write("on.flagd.json", flagd("on")),
            flagdOff: try write("off.flagd.json", flagd("off")),
            unleash: try write("features.unleash.json", #"{"version": 2, "features": [{"name": "checkout", "enabled": false, "strategies": []}]}"#),
            growthBook: try write("features.growthbook.json", #"{"features": {"checkout": {"defaultValue": true}}}"#)
        )
    }

    func checkout(_ arguments: String...) async throws -> String {
        let result = try await offThePool { try tweak(["get", "checkout.enabled"] + arguments) }
        #expect(result.status == 0, "\(arguments): \(result.errors)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("flag files of different formats keep the command line's order: the first given wins")
    func flagFilesKeepCommandLineOrder() async throws {
        let files = try files()
        #expect(try await checkout("--unleash-features", files.unleash, "--growthbook-features", files.growthBook) == "false")
        #expect(try await checkout("--growthbook-features", files.growthBook, "--unleash-features", files.unleash) == "true")
        // Three formats, the winner in the middle of the declaration order and last on the line.
        #expect(try await checkout("--growthbook-features", files.growthBook, "--flags", files.flagdOff, "--unleash-features", files.unleash) == "true")
        #expect(try await checkout("--flags", files.flagdOff, "--growthbook-features", files.growthBook, "--unleash-features", files.unleash) == "false")
    }

    @Test("an option is repeatable, spelled --option FILE or --option=FILE, and its files keep their order")
    func repeatedAndEqualsSpelling() async throws {
        let files = try files()
        #expect(try await checkout("--flags=\(files.flagdOff)", "--flags", files.flagdOn) == "false")
        #expect(try await checkout("--flags", files.flagdOn, "--flags=\(files.flagdOff)") == "true")
        #expect(try await checkout("--flags", files.flagdOn, "--unleash-features=\(files.unleash)") == "true")
    }

    @Test("--source FORMAT:FILE, tweak 0.5's spelling, still reads a file in its place among the others")
    func legacySourceSpelling() async throws {
        let files = try files()
        #expect(try await checkout("--source", "flags:\(files.flagdOff)", "--growthbook-features", files.growthBook) == "false")
        #expect(try await checkout("--growthbook-features", files.growthBook, "--source=flags:\(files.flagdOff)") == "true")
        let wrong = try await tweak("get", "checkout.enabled", "--source", "acme:\(files.flagdOff)")
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("--source takes FORMAT:FILE with FORMAT one of flags, optimizely-datafile"), "\(wrong.errors)")
    }

    @Test("a flag file option without its file is the parser's error, naming the option")
    func missingValue() async throws {
        let result = try await tweak("get", "checkout.enabled", "--unleash-features")
        #expect(result.status != 0)
        #expect(result.errors.contains("--unleash-features"), "\(result.errors)")
    }

    @Test("eval takes exactly one flag file and refuses another format's options; eval-batch takes one --flags")
    func evalTakesOneFile() async throws {
        let files = try files()
        let two = try await tweak("eval", "--unleash-features", files.unleash, "--growthbook-features", files.growthBook, "checkout")
        #expect(two.status != 0)
        #expect(two.errors.contains("give exactly one of --flags, --optimizely-datafile"), "\(two.errors)")
        let wrong = try await tweak("eval", "--unleash-features", files.unleash, "checkout", "--decryption-key", "k", "--type", "boolean")
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("--decryption-key is not for --unleash-features"), "\(wrong.errors)")
        // eval-batch is flagd's: it has --flags alone, and one of it.
        let batch = try await tweak("eval-batch", "--unleash-features", files.unleash)
        #expect(batch.status != 0)
        #expect(batch.errors.contains("Unknown option '--unleash-features'"), "\(batch.errors)")
        let twice = try await tweak("eval-batch", "--flags", files.flagdOn, "--flags", files.flagdOff)
        #expect(twice.status != 0)
        #expect(twice.errors.contains("eval-batch takes at most one --flags FILE"), "\(twice.errors)")
    }
}
