import ArgumentParser
import TweakKit

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one tweak's value (with --json: value, type and source).")

    @Argument(help: ArgumentHelp("The tweak.", valueName: "feature.variable"))
    var tweak: TweakAddress

    @OptionGroup var stack: StackOptions

    @Flag(help: "Print JSON with the value, its type and its source.")
    var json = false

    func run() async throws {
        try await stack.withManager { manager in
            // One lookup: the providers answer it themselves, as they would the snapshot. Building
            // the merged snapshot of every tweak first cost more than the tweaks file's own tweaks.
            manager.useCache = false
            let found = try manager.tweakWith(feature: tweak.id.feature, variable: tweak.id.variable)
            print(json ? Output.render(Output.json(found)) : found.content.description)
        }
    }
}
