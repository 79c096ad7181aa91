import ArgumentParser
import TweakKit

/// The flag files a command reads: one option a format, declared here once and shared by
/// `tweak eval` and the stack commands (`list`, `get`, `set`, `delete`, `serve`).
///
/// ```
/// $ tweak eval --flags flags.flagd.json new-checkout --context '{"targetingKey": "u1"}'
/// $ tweak list --growthbook-features features.json --flags=flags.flagd.json --defaults Tweaks.json
/// ```
///
/// Each option may be repeated, and ``files`` keeps the command line's order across all of them:
/// in a stack the first flag file given wins over the later ones.
struct FlagFileOptions: ParsableArguments {
    @Option(name: .customLong("flags"), help: ArgumentHelp("OpenFeature flagd flag definitions.", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.flagd))
    var flagd: [SourceFile] = []

    @Option(name: .customLong("optimizely-datafile"), help: ArgumentHelp("An Optimizely datafile.", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.optimizely))
    var optimizely: [SourceFile] = []

    @Option(name: .customLong("firebase-template"), help: ArgumentHelp("A Firebase Remote Config server template.", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.firebase))
    var firebase: [SourceFile] = []

    @Option(name: .customLong("unleash-features"), help: ArgumentHelp("An Unleash client features payload (/api/client/features).", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.unleash))
    var unleash: [SourceFile] = []

    @Option(name: .customLong("growthbook-features"), help: ArgumentHelp("A GrowthBook SDK payload (/api/features/KEY).", valueName: "file"),
            completion: .file(extensions: ["json"]), transform: SourceFile.reader(SourceFormats.growthBook))
    var growthBook: [SourceFile] = []

    /// `--source FORMAT:FILE`, what tweak 0.5's help showed; kept so those command lines still work.
    @Option(name: .customLong("source"), help: .hidden, transform: SourceFile.legacy)
    var legacy: [SourceFile] = []

    /// Every flag file, in the order given on the command line.
    var files: [SourceFile] {
        (flagd + optimizely + firebase + unleash + growthBook + legacy).sorted { $0.position < $1.position }
    }
}
