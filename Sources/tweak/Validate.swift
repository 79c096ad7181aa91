import ArgumentParser
import Foundation
import TweakCodegenCommands
import TweakKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tweaks and flag files; print each problem with its place and exit 1 if there are any.",
        discussion: "Recognizes each file by its content: \(SourceFormats.formats.map(\.name).joined(separator: ", "))."
    )

    @Argument(help: ArgumentHelp("JSON files to check.", valueName: "file"), completion: .file(extensions: ["json"]))
    var files: [URL]

    func run() throws {
        var problemCount = 0
        for url in files {
            let validation = Self.check(url)
            if validation.problems.isEmpty {
                print("\(url.relativePath): OK, \(validation.count) \(validation.noun)")
            }
            for problem in validation.problems {
                printError(problem.description)
            }
            problemCount += validation.problems.count
        }
        if problemCount > 0 {
            throw CommandFailure("\(problemCount) problem\(problemCount == 1 ? "" : "s") found")
        }
    }

    /// Reads the file and checks it as the format that recognizes it.
    static func check(_ url: URL) -> TweakDocumentValidation {
        let data: Data
        do {
            data = try TweakFileError.contents(of: url)
        } catch {
            return TweakDocumentValidation(count: 0, noun: "tweaks", problems: [error])
        }
        return SourceFormats.recognizing(data).validate(data, source: url.relativePath)
    }
}
