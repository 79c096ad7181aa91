import ArgumentParser
import Foundation
import TweakKit
import TweakKitFirebase
import TweakKitFlagd
import TweakKitGrowthBook
import TweakKitOptimizely
import TweakKitUnleash

/// A document format the tool reads, and the option that names a file of it.
struct SourceFormat: Sendable {
    /// `--<option> FILE` on the command line; `nil` for tweaks files, which `--defaults` reads.
    let option: String?
    let format: any TweakDocumentFormat
}

/// Every document format the tool reads. `tweak validate` recognizes files in this order,
/// `tweak eval` and the stack commands (`list`, `get`, `set`, `serve`) take `--<option> FILE` for
/// each, and `--remote` decodes whichever of them a server sends.
///
/// A new format is one line here (and its target in Package.swift).
enum SourceFormats {
    static let all: [SourceFormat] = [
        SourceFormat(option: "flags", format: .flagd),
        SourceFormat(option: "optimizely-datafile", format: .optimizely()),
        SourceFormat(option: "firebase-template", format: .firebase()),
        SourceFormat(option: "unleash-features", format: .unleash()),
        SourceFormat(option: "growthbook-features", format: .growthBook()),
        SourceFormat(option: nil, format: .tweaks),  // last: it takes any JSON object
    ]

    /// The formats in recognition order.
    static var formats: [any TweakDocumentFormat] { all.map(\.format) }

    /// The format `--option` names.
    static func format(option: String) -> SourceFormat? {
        all.first { $0.option == option }
    }

    /// The format a file is, by its content; a file that is not JSON counts as a tweaks file, whose
    /// error says so.
    static func recognizing(_ data: Data) -> any TweakDocumentFormat {
        guard let root = try? JSONParser.parse(Array(data)) else { return TweakFileFormat() }
        return formats.first { $0.recognizes(root) } ?? TweakFileFormat()
    }

    /// The option names, for help texts: "--flags, --optimizely-datafile, …".
    static var optionList: String {
        all.compactMap(\.option).map { "--\($0)" }.joined(separator: ", ")
    }

    /// Rewrites `--<option> FILE` (and `--<option>=FILE`) for each format into
    /// `--source <option>:FILE`, which the commands declare once.
    static func rewrite(_ arguments: [String]) -> [String] {
        var rewritten: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rewritten.append(contentsOf: arguments[(index - 1)...])
                break
            }
            guard argument.hasPrefix("--") else {
                rewritten.append(argument)
                continue
            }
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            guard let option = format(option: String(name))?.option else {
                rewritten.append(argument)
                continue
            }
            if let equals = argument.firstIndex(of: "=") {
                rewritten.append("--source=\(option):\(argument[argument.index(after: equals)...])")
            } else if index < arguments.endIndex {
                rewritten.append(contentsOf: ["--source", "\(option):\(arguments[index])"])
                index += 1
            } else {
                rewritten.append(argument)  // the parser says the value is missing
            }
        }
        return rewritten
    }
}

/// A `--source FORMAT:FILE` argument (written `--<format option> FILE` on the command line).
struct SourceFile: ExpressibleByArgument {
    let source: SourceFormat
    let url: URL

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"),
              let source = SourceFormats.format(option: String(argument[..<colon])) else { return nil }
        self.source = source
        self.url = URL(fileURLWithPath: String(argument[argument.index(after: colon)...]))
    }

    /// The option as the user wrote it.
    var optionName: String { "--\(source.option ?? "defaults")" }

    /// A provider serving the file.
    func provider() throws -> DocumentTweakProvider {
        try DocumentTweakProvider(contentsOf: url, format: source.format)
    }
}
