import ArgumentParser
import Foundation
import TweakKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tweaks files; print each problem with its place and exit 1 if there are any."
    )

    @Argument(help: ArgumentHelp("Tweaks JSON files to check.", valueName: "file"))
    var files: [String]

    func run() throws {
        var problemCount = 0
        for path in files {
            let result = TweakFileParser.parse(contentsOf: URL(fileURLWithPath: path))
            if result.problems.isEmpty {
                print("\(path): OK, \(result.tweaks.count) tweaks")
            }
            for problem in result.problems {
                Output.printError(problem.description)
            }
            problemCount += result.problems.count
        }
        if problemCount > 0 {
            Output.printError("\(problemCount) problem\(problemCount == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
    }
}
