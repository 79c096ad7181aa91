import ArgumentParser
import Foundation
import TweakKit
import TweakKitFlagd

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tweaks files; print each problem with its place and exit 1 if there are any."
    )

    @Argument(help: ArgumentHelp("Tweaks JSON files to check.", valueName: "file"))
    var files: [String]

    func run() throws {
        var problemCount = 0
        for path in files {
            let url = URL(fileURLWithPath: path)
            let (count, noun, problems) = FlagdFiles.isFlagd(url) ? Self.checkFlags(url) : Self.checkTweaks(url)
            if problems.isEmpty {
                print("\(path): OK, \(count) \(noun)")
            }
            for problem in problems {
                Output.printError(problem.description)
            }
            problemCount += problems.count
        }
        if problemCount > 0 {
            Output.printError("\(problemCount) problem\(problemCount == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
    }

    static func checkTweaks(_ url: URL) -> (Int, String, [TweakFileError]) {
        let result = TweakFileParser.parse(contentsOf: url)
        return (result.tweaks.count, "tweaks", result.problems)
    }

    static func checkFlags(_ url: URL) -> (Int, String, [TweakFileError]) {
        do {
            let definitions = try FlagdDefinitions(contentsOf: url)
            return (definitions.flags.count, "flagd flags", definitions.problems)
        } catch {
            return (0, "flagd flags", [error])
        }
    }
}

/// Tells flagd flag definition files from tweaks files: a top-level `"flags"` object.
enum FlagdFiles {
    static func isFlagd(_ url: URL) -> Bool {
        guard let data = FileManager.default.contents(atPath: url.path),
              let value = try? TweakValue(jsonText: String(decoding: data, as: UTF8.self)),
              case .object(let root) = value, case .object? = root["flags"]
        else { return url.lastPathComponent.hasSuffix(".flagd.json") }
        return true
    }
}
