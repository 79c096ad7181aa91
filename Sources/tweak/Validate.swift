import ArgumentParser
import Foundation
import TweakKit
import TweakKitFirebase
import TweakKitFlagd
import TweakKitOptimizely
import TweakKitGrowthBook

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tweaks files; print each problem with its place and exit 1 if there are any.",
        discussion: "Reads tweaks files, flagd flag definitions (a top-level \"flags\" object), Optimizely datafiles (\"featureFlags\"), Firebase Remote Config server templates (\"conditions\" / \"parameters\") and GrowthBook SDK payloads (\"features\" / \"encryptedFeatures\")."
    )

    @Argument(help: ArgumentHelp("JSON files to check.", valueName: "file"))
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

    /// Reads and parses the file once, then checks it as what it looks like: flagd definitions
    /// (a top-level `flags` object), an Optimizely datafile, a Firebase template, a GrowthBook payload, or a tweaks file.
    static func check(_ url: URL) -> (Int, String, [TweakFileError]) {
        let path = url.path
        let root: JSONNode
        do {
            root = try TweakFileError.json(from: TweakFileError.contents(of: url), file: path)
        } catch {
            return (0, "tweaks", [error])  // the noun is shown only when there are no problems
        }
        if FlagdDefinitions.isFlagd(root) {
            do {
                let definitions = try FlagdDefinitions(root: root, file: path)
                return (definitions.flags.count, "flagd flags", definitions.problems)
            } catch {
                return (0, "flagd flags", [error])
            }
        }
        if OptimizelyDatafile.isDatafile(root) {
            do {
                return (try OptimizelyDatafile(root: root, source: path).flagKeys.count, "Optimizely flags", [])
            } catch {
                return (0, "Optimizely flags", [error])
            }
        }
        if FirebaseTemplate.isTemplate(root) {
            do {
                return (try FirebaseTemplate(root: root, source: path).parameters.count, "Firebase parameters", [])
            } catch {
                return (0, "Firebase parameters", [error])
            }
        }
        if GrowthBookPayloadFormat.isGrowthBookPayload(root) {
            do {
                return (try GrowthBookPayload(json: GrowthBookValue(root), source: path).featureKeys.count, "GrowthBook features", [])
            } catch {
                return (0, "GrowthBook features", [TweakFileError(file: path, message: error.path.isEmpty ? error.message : "\(error.path): \(error.message)")])
            }
        }
        let result = TweakFileParser.parse(root: root, file: path, source: url.lastPathComponent)
        return (result.tweaks.count, "tweaks", result.problems)
    }
}
