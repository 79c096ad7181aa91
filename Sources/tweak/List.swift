import ArgumentParser
import TweakCodegenCommands
import TweakKit

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every tweak with its value, type and source.")

    @OptionGroup var stack: StackOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        try await stack.withManager { manager in list(manager) }
    }

    private func list(_ manager: TweakManager) {
        // Merged from the providers as it is printed, row by row: the manager's lookup snapshot
        // (what `allResolvedTweaks()` reads) and one JSON tree of all tweaks took gigabytes on large files.
        let listing = manager.resolvedTweakListing()
        if json {
            Output.printJSONArray(listing.lazy.compactMap { entry in entry.tweak.map { Output.json($0, overridden: entry.isOverridden) } })
            return
        }
        Output.printTable(header: ["TWEAK", "VALUE", "TYPE", "SOURCE", "TITLE"], rows: listing.lazy.map(Self.row))
        for error in listing.providerErrors {
            printError(error.description)
        }
    }

    private static func row(_ entry: ResolvedTweak) -> [String] {
        guard let tweak = entry.tweak else {
            return [entry.id.description, "-", "-", unusableReason(entry), ""]
        }
        let source = (tweak.source ?? "") + (entry.isOverridden ? " (overridden)" : "")
        return [tweak.id.description, tweak.content.description, tweak.content.kind.rawValue, source, tweak.title ?? ""]
    }

    static func unusableReason(_ entry: ResolvedTweak) -> String {
        switch entry.issues.first {
        case .decryptionClosureNotProvided?: "(encrypted; no decryption closure)"
        case .notSupported(.decryptionFailed)?: "(encrypted; decryption failed)"
        default: "(no usable value)"
        }
    }
}
