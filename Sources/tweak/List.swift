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
        let resolved = manager.allResolvedTweaks()
        if json {
            let items = resolved.compactMap { entry in entry.tweak.map { Output.json($0, overridden: entry.isOverridden) } }
            print(Output.render(.array(items)))
            return
        }
        let header = ["TWEAK", "VALUE", "TYPE", "SOURCE", "TITLE"]
        // Rows are made as they are printed: a table of a million tweaks' strings took gigabytes.
        Output.printTable(rowCount: resolved.count + 1) { index in
            index == 0 ? header : Self.row(resolved[index - 1])
        }
        for error in manager.providerErrors {
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
