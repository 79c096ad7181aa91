import ArgumentParser
import Foundation
import Synchronization
import TweakKit

/// A flag file named on the command line (`--flags FILE`, `--unleash-features FILE`, …): its
/// format, its path, and where it stood among the other flag files.
///
/// ```
/// $ tweak list --unleash-features features.json --flags flags.flagd.json
/// ```
/// puts the Unleash payload above the flagd file: among flag files, the first given wins,
/// whatever their formats.
struct SourceFile: Sendable {
    let source: SourceFormat
    let url: URL
    /// The order it was given in, relative to the other flag files of the command line.
    let position: Int

    /// A file of `source`'s format at `path`, numbered after every file read before it.
    init(source: SourceFormat, path: String) {
        self.source = source
        self.url = URL(fileURLWithPath: path)
        self.position = Self.nextPosition.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// swift-argument-parser reads options in the order they are given and calls an option's
    /// transform as it reads each value, so numbering files as they are made orders the values of
    /// different options (`--flags`, `--unleash-features`, …) as the command line does.
    /// `TweakCLITests.flagFilesKeepCommandLineOrder` holds that to account.
    private static let nextPosition = Atomic<Int>(0)

    /// The transform for `--<source option> FILE`.
    static func reader(_ source: SourceFormat) -> @Sendable (String) -> SourceFile {
        { path in SourceFile(source: source, path: path) }
    }

    /// The transform for `--source FORMAT:FILE`, the spelling tweak 0.5 printed in its help
    /// (`--source flags:flags.flagd.json`); still read, no longer shown.
    @Sendable static func legacy(_ argument: String) throws -> SourceFile {
        guard let colon = argument.firstIndex(of: ":"),
              let source = SourceFormats.format(option: String(argument[..<colon])) else {
            let formats = SourceFormats.all.compactMap(\.option).joined(separator: ", ")
            throw ValidationError("--source takes FORMAT:FILE with FORMAT one of \(formats), found \(argument)")
        }
        return SourceFile(source: source, path: String(argument[argument.index(after: colon)...]))
    }

    /// The option as the user writes it.
    var optionName: String { "--\(source.option ?? "defaults")" }

    /// A provider serving the file.
    func provider() throws -> DocumentTweakProvider {
        try DocumentTweakProvider(contentsOf: url, format: source.format)
    }
}
