import Foundation
import PackagePlugin

/// `swift package generate-tweak-accessors [--target NAME …]`: writes each target's typed tweak
/// accessor into `Sources/<Target>/Generated/`, for projects that commit generated code.
///
/// A target takes part when it holds a tweaks file and a configuration, as for
/// `TweakAccessorPlugin`; without `--target`, every such target does.
@main
struct GenerateTweakAccessors: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let requested = Set(extractor.extractOption(named: "target"))
        let tool = try context.tool(named: "tweak-accessors").url
        var generated = 0
        for target in context.package.targets {
            guard let module = target as? SwiftSourceModuleTarget else { continue }
            if !requested.isEmpty && !requested.contains(target.name) { continue }
            let inputs: TweakAccessorInputs
            do {
                inputs = try TweakAccessorInputs(files: module.sourceFiles.map(\.url), target: target.name)
            } catch {
                if requested.contains(target.name) { throw error }
                continue
            }
            let output = module.directoryURL.appendingPathComponent("Generated")
            let process = Process()
            process.executableURL = tool
            process.arguments = inputs.arguments(output: output)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw TweakAccessorInputs.Failure(description: "tweak generate failed for target '\(target.name)'")
            }
            generated += 1
        }
        if generated == 0 {
            throw TweakAccessorInputs.Failure(description: "no target has a tweaks file and a config.json to generate from")
        }
    }
}
