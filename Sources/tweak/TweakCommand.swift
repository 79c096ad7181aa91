import ArgumentParser
import TweakCodegenCommands

@main
struct TweakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweak",
        abstract: "Inspect, check and override TweakKit tweaks.",
        discussion: """
            A stack is built from --store or --overrides (highest priority, writable), then --remote, then flag
            files (\(SourceFormats.optionList)), then the --defaults files in the order given (the
            first one wins over later ones).

              tweak list --defaults Examples/LocalTweaks_example.json
              tweak set ui_customization.label_text "Hello" --defaults Tweaks.json --overrides overrides.json
              tweak eval --flags Examples/flags.flagd.json checkout.theme --context '{"targetingKey": "u1"}'
            """,
        version: TweakKitVersion.current,
        subcommands: [Validate.self, List.self, Get.self, Set.self, Delete.self, Generate.self, Lint.self, Eval.self, EvalBatch.self, Serve.self, History.self]
    )
}

/// The version `tweak --version` prints.
enum TweakKitVersion {
    static let current = "0.5.0"
}
