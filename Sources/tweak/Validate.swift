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
            let (count, noun, problems) = Self.check(URL(fileURLWithPath: path))
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

    /// Reads and parses the file once, then checks it as flagd definitions (a top-level `flags`
    /// object) or as a tweaks file.
    static func check(_ url: URL) -> (Int, String, [TweakFileError]) {
        let path = url.path
        let noun = url.lastPathComponent.hasSuffix(".flagd.json") ? "flagd flags" : "tweaks"
        guard let data = FileManager.default.contents(atPath: path) else {
            let message = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "file not found"
            return (0, noun, [TweakFileError(file: path, message: message)])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            return (0, noun, [TweakFileError(file: path, location: error.location, message: "syntax error: \(error.message)")])
        }
        if FlagdDefinitions.isFlagd(root) {
            do {
                let definitions = try FlagdDefinitions(root: root, file: path)
                return (definitions.flags.count, "flagd flags", definitions.problems)
            } catch {
                return (0, "flagd flags", [error])
            }
        }
        let result = TweakFileParser.parse(root: root, file: path, source: url.lastPathComponent)
        return (result.tweaks.count, "tweaks", result.problems)
    }
}
