import ArgumentParser
import TweakCodegenCommands
import TweakKit
import TweakKitStore

struct Set: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Override a tweak in the --overrides file.",
        discussion: "VALUE is read as the type of the tweak it overrides (true/false for Bool, a whole number for Int, a number for Float and Double, any text for String); a value that does not fit is refused. Use --type for a tweak no file defines. Negative numbers need no quoting: tweak set ui.offset -3 …"
    )

    @Argument(help: ArgumentHelp("The tweak.", valueName: "feature.variable"))
    var tweak: TweakAddress

    // Collected this way so that negative numbers (`-0.5`) are read as the value, not as options.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The new value.", valueName: "value"))
    var values: [String] = []

    var value: String { values.first ?? "" }

    @Option(help: ArgumentHelp("The type of VALUE when no file defines the tweak.", valueName: "bool|int|float|double|string"))
    var type: TweakContent.Kind?

    @OptionGroup var stack: StackOptions

    @Option(help: ArgumentHelp("Why, recorded in a --store's history.", valueName: "text"))
    var reason: String?

    func validate() throws {
        if !stack.isWritable { throw ValidationError("set needs --overrides FILE or --store URL to write to") }
        if values.count != 1 { throw ValidationError("give exactly one value after \(tweak.id)") }
    }

    func run() async throws {
        try await stack.withManager(createsStore: true) { manager in try await set(in: manager) }
    }

    private func set(in manager: TweakManager) async throws {
        let id = tweak.id
        let existing = manager.resolvedTweak(feature: id.feature, variable: id.variable).tweak?.content.kind
        guard let kind = type ?? existing else {
            throw CommandFailure("\(id) is not defined in any file; give its type with --type bool|int|float|double|string")
        }
        if let type, let existing, !ValueParser.compatible(type, existing) {
            throw CommandFailure("\(id) is a \(existing); --type \(type.rawValue.lowercased()) does not match")
        }
        let parsed: TweakContent
        do {
            parsed = try ValueParser.parse(value, as: kind)
        } catch {
            throw CommandFailure("\(id): \(error)")
        }
        if let shared = manager.mutableTweakProvider as? StoreTweakProvider {
            let changes = try await shared.apply([TweakWrite(feature: id.feature, variable: id.variable, value: parsed)], reason: reason)
            print("\(id) = \(parsed) (\(parsed.kind))" + (changes.last.map { ", version \($0.version)" } ?? ""))
            return
        }
        try manager.store(parsed, feature: id.feature, variable: id.variable)
        print("\(id) = \(parsed) (\(parsed.kind))")
    }
}

struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a tweak's override from the --overrides file or the --store.")

    @Argument(help: ArgumentHelp("The tweak.", valueName: "feature.variable"))
    var tweak: TweakAddress

    @OptionGroup var stack: StackOptions

    @Option(help: ArgumentHelp("Why, recorded in a --store's history.", valueName: "text"))
    var reason: String?

    func validate() throws {
        if !stack.isWritable { throw ValidationError("delete needs --overrides FILE or --store URL to write to") }
    }

    func run() async throws {
        try await stack.withManager { manager in try await delete(in: manager) }
    }

    private func delete(in manager: TweakManager) async throws {
        if let shared = manager.mutableTweakProvider as? StoreTweakProvider {
            try await shared.apply([TweakWrite(feature: tweak.id.feature, variable: tweak.id.variable, value: nil)], reason: reason)
        } else {
            try manager.removeValue(feature: tweak.id.feature, variable: tweak.id.variable)
        }
        let now = manager.resolvedTweak(feature: tweak.id.feature, variable: tweak.id.variable).tweak
        print("\(tweak.id) override removed" + (now.map { "; now \($0.content) from \($0.source ?? "?")" } ?? ""))
    }
}
