import Foundation
import PackagePlugin

/// Generates a target's typed tweak accessor before it compiles.
///
/// The target holds its tweaks file and configuration among its files (declare them as resources
/// so the app can also load the tweaks at run time):
/// - the tweaks file: a `.json` file whose name contains `Tweaks` (e.g. `Tweaks.json`, `LocalTweaks.json`);
/// - the configuration: `config.json` (JustTweak's name) or `TweakAccessor.json`.
///
/// ```swift
/// .executableTarget(
///     name: "App",
///     dependencies: [.product(name: "TweakKit", package: "TweakKit")],
///     resources: [.copy("Tweaks.json"), .copy("config.json")],
///     plugins: [.plugin(name: "TweakAccessorPlugin", package: "TweakKit")]
/// )
/// ```
@main
struct TweakAccessorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let inputs = try TweakAccessorInputs(files: module.sourceFiles.map(\.url), target: target.name)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedTweakAccessors")
        return [
            .buildCommand(
                displayName: "Generating \(inputs.accessorName) from \(inputs.tweaks.lastPathComponent)",
                executable: try context.tool(named: "tweak-accessors").url,
                arguments: inputs.arguments(output: output),
                inputFiles: [inputs.tweaks, inputs.configuration],
                outputFiles: inputs.outputFiles(in: output)
            ),
        ]
    }
}
