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
        var rows = [["TWEAK", "VALUE", "TYPE", "SOURCE", "TITLE"]]
        for entry in resolved {
            guard let tweak = entry.tweak else {
                rows.append([entry.id.description, "-", "-", Self.unusableReason(entry), ""])
                continue
            }
            let source = (tweak.source ?? "") + (entry.isOverridden ? " (overridden)" : "")
            rows.append([tweak.id.description, tweak.content.description, tweak.content.kind.rawValue, source, tweak.title ?? ""])
        }
        print(Output.table(rows))
        for error in manager.providerErrors {
            printError(error.description)
        }
    }

    static func unusableReason(_ entry: ResolvedTweak) -> String {
        switch entry.issues.first {
        case .decryptionClosureNotProvided?: "(encrypted; no decryption closure)"
        case .notSupported(.decryptionFailed)?: "(encrypted; decryption failed)"
        default: "(no usable value)"
        }
    }
}
