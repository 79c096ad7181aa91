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

/// Every document format the tool reads. `tweak validate` recognizes files in this order, and
/// `--remote` decodes whichever of them a server sends.
///
/// A new format is a line here, its file option in ``FlagFileOptions``, and its
/// ``FormatEvaluation`` for `tweak eval` (and its target in Package.swift).
enum SourceFormats {
    static let flagd = SourceFormat(option: "flags", format: .flagd)
    static let optimizely = SourceFormat(option: "optimizely-datafile", format: .optimizely())
    static let firebase = SourceFormat(option: "firebase-template", format: .firebase())
    static let unleash = SourceFormat(option: "unleash-features", format: .unleash())
    static let growthBook = SourceFormat(option: "growthbook-features", format: .growthBook())
    static let tweaks = SourceFormat(option: nil, format: .tweaks)

    /// The formats in recognition order: tweaks files last, as they take any JSON object.
    static let all: [SourceFormat] = [flagd, optimizely, firebase, unleash, growthBook, tweaks]

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
}
