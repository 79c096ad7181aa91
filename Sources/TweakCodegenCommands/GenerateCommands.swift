#if Plugins
public import ArgumentParser
#else
#error("The tweak accessor plugins need the package trait Plugins: .package(url: …, traits: [\"Plugins\"])")
#endif
public import Foundation
import TweakKit
import TweakKitCodegen

/// `tweak generate`: the typed accessor from a tweaks file (also the build plugins' tool).
public struct Generate: ParsableCommand {
    /// Creates the command; the parser fills its options.
    public init() {}

    /// `generate`, with its abstract and discussion.
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a typed accessor (and constants) from a tweaks file.",
        discussion: "Writes <accessorName>.swift and <accessorName>+Constants.swift into the output folder, only when their content changes. The configuration (config.json) gives accessorName, and optionally accessLevel (internal, package, public) and imports."
    )

    @Option(name: [.customShort("l"), .long], help: ArgumentHelp("The tweaks JSON file.", valueName: "file"), completion: .file(extensions: ["json"]))
    var localTweaks: URL

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The folder to write the Swift files to.", valueName: "folder"), completion: .directory)
    var outputFolder: URL

    @Option(name: [.customShort("c"), .long], help: ArgumentHelp("The folder holding config.json, or the configuration file itself.", valueName: "folder"), completion: .file())
    var configurationFolder: URL

    @Option(help: ArgumentHelp("The day expiry dates are compared with (YYYY-MM-DD); today by default.", visibility: .hidden))
    var today: String?

    /// Generates the accessor and writes the files whose content changed.
    public func run() throws {
        let day = try LintOptions.day(today)
        let configuration: GeneratorConfiguration
        configuration = try GeneratorConfiguration(contentsOf: configurationFolder)
        let url = localTweaks
        let result = TweakFileParser.parse(contentsOf: url)
        guard result.problems.isEmpty else {
            for problem in result.problems { printError(problem.description) }
            throw CommandFailure("\(localTweaks.relativePath) has \(result.problems.count) problem\(result.problems.count == 1 ? "" : "s"); nothing generated")
        }
        let generator = AccessorGenerator(configuration: configuration, sourceName: url.lastPathComponent, today: day)
        let files = try generator.generate(result.definitions)
        let written = try GeneratedFileWriter.write(files, to: outputFolder)
        print(written.isEmpty ? "\(configuration.accessorName): up to date" : "wrote \(written.joined(separator: ", "))")
    }
}

/// `tweak lint`: expired tweaks and tweaks without an owner.
public struct Lint: ParsableCommand {
    /// Creates the command; the parser fills its options.
    public init() {}

    /// `lint`, with its abstract and discussion.
    public static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "List expired tweaks and tweaks without an owner.",
        discussion: "Exits 1 when a tweak has expired (or, with --strict, when one has no owner)."
    )

    @Argument(help: ArgumentHelp("Tweaks JSON files.", valueName: "file"), completion: .file(extensions: ["json"]))
    var files: [URL]

    @Flag(help: "Also fail when a tweak has no owner.")
    var strict = false

    @Option(help: ArgumentHelp("The day expiry dates are compared with (YYYY-MM-DD); today by default.", valueName: "date"))
    var today: String?

    /// Prints every finding; exits with status 1 on an expired tweak (or any finding with `--strict`).
    public func run() throws {
        let day = try LintOptions.day(today)
        var failing = false
        for url in files {
            let path = url.relativePath
            let result = TweakFileParser.parse(contentsOf: url)
            for problem in result.problems {
                printError(problem.description)
                failing = true
            }
            let findings = TweakLinter.lint(result.definitions, file: path, today: day)
            for finding in findings {
                print(finding.description)
                switch finding.kind {
                case .expired: failing = true
                case .missingOwner: failing = failing || strict
                }
            }
            if findings.isEmpty && result.problems.isEmpty {
                print("\(path): no expired tweaks, every tweak has an owner")
            }
        }
        if failing { throw CommandFailure("lint found problems") }
    }
}

enum LintOptions {
    static func day(_ text: String?) throws -> TweakDefinition.Day {
        guard let text else { return .today }
        guard let day = TweakDefinition.Day(iso: text) else {
            throw ValidationError("--today must be a date like 2025-06-30")
        }
        return day
    }
}

extension URL: @retroactive ExpressibleByArgument {
    /// A file path, relative to the working directory or absolute.
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(fileURLWithPath: argument)
    }
}

/// Prints one problem of several to standard error (`error: …`); a command that fails throws
/// a ``CommandFailure`` (or the error itself) instead, and the parser prints it.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
}

/// Prints a warning to standard error (`warning: …`).
public func printWarning(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}

/// A command's failure, said in one sentence: the parser prints it and the tool exits with status 1.
public struct CommandFailure: Error, CustomStringConvertible {
    /// The sentence printed.
    public let description: String

    /// Creates a failure that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}
