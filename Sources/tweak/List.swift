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
            TweakListJSON.print(listing)
            return
        }
        var table = TableText()
        // A dense file's row is about 40 bytes; a longer one grows the text as it needs.
        table.reserveCapacity(rows: listing.underestimatedCount + 1, bytesPerRow: 64, cellsPerRow: 5)
        table.append(["TWEAK", "VALUE", "TYPE", "SOURCE", "TITLE"])
        // A tweak that is all there is to say about its entry is written from where the provider
        // keeps it, with no `ResolvedTweak` built for it.
        listing.forEachRow { row in
            switch row {
            case .tweak(let tweak, let isOverridden): Self.appendRow(tweak, isOverridden: isOverridden, to: &table)
            case .entry(let entry): Self.appendRow(entry, to: &table)
            }
        }
        table.print()
        for error in listing.providerErrors {
            printError(error.description)
        }
    }

    /// The entry's row, `[id, value, type, source, title]`, cell by cell: no array of cells nor
    /// joined strings for each of a large file's rows.
    private static func appendRow(_ entry: ResolvedTweak, to table: inout TableText) {
        if let tweak = entry.tweak {
            appendRow(tweak, isOverridden: entry.isOverridden, to: &table)
            return
        }
        table.appendText(entry.id.feature)
        table.appendText(".")
        table.appendText(entry.id.variable)
        table.endCell()
        for cell in ["-", "-", unusableReason(entry), ""] {
            table.appendText(cell)
            table.endCell()
        }
        table.endRow()
    }

    /// The row of an entry whose winning tweak is `tweak`.
    private static func appendRow(_ tweak: Tweak, isOverridden: Bool, to table: inout TableText) {
        table.appendText(tweak.feature)
        table.appendText(".")
        table.appendText(tweak.variable)
        table.endCell()
        table.appendText(tweak.content.description)
        table.endCell()
        table.appendText(tweak.content.kind.rawValue)
        table.endCell()
        table.appendText(tweak.source ?? "")
        if isOverridden { table.appendText(" (overridden)") }
        table.endCell()
        table.appendText(tweak.title ?? "")
        table.endCell()
        table.endRow()
    }

    static func unusableReason(_ entry: ResolvedTweak) -> String {
        switch entry.issues.first {
        case .decryptionClosureNotProvided?: "(encrypted; no decryption closure)"
        case .notSupported(.decryptionFailed)?: "(encrypted; decryption failed)"
        default: "(no usable value)"
        }
    }
}
