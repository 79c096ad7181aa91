import Foundation

/// The tweaks file and configuration found among a target's files.
struct TweakAccessorInputs {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let configurationNames: Set<String> = ["config.json", "TweakAccessor.json"]

    let tweaks: URL
    let configuration: URL
    let accessorName: String

    init(files: [URL], target: String) throws {
        let json = files.filter { $0.pathExtension == "json" }
        let configurations = json.filter { Self.configurationNames.contains($0.lastPathComponent) }
        let tweaksFiles = json.filter {
            !Self.configurationNames.contains($0.lastPathComponent) && $0.lastPathComponent.lowercased().contains("tweaks")
        }
        func list(_ urls: [URL]) -> String { urls.map(\.lastPathComponent).sorted().joined(separator: ", ") }
        guard let tweaks = tweaksFiles.first else {
            throw Failure(description: "target '\(target)' has no tweaks file for TweakAccessorPlugin: add a .json file whose name contains 'Tweaks' (e.g. Tweaks.json) to the target, as a resource")
        }
        guard tweaksFiles.count == 1 else {
            throw Failure(description: "target '\(target)' has several tweaks files (\(list(tweaksFiles))); TweakAccessorPlugin needs exactly one")
        }
        guard let configuration = configurations.first else {
            throw Failure(description: "target '\(target)' has no accessor configuration: add config.json (or TweakAccessor.json) with {\"accessorName\": \"…\"} to the target, as a resource")
        }
        guard configurations.count == 1 else {
            throw Failure(description: "target '\(target)' has several accessor configurations (\(list(configurations))); keep one")
        }
        guard let data = FileManager.default.contents(atPath: configuration.path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let name = object["accessorName"] as? String, !name.isEmpty
        else {
            throw Failure(description: "\(configuration.path): needs a JSON object with a non-empty \"accessorName\"")
        }
        self.tweaks = tweaks
        self.configuration = configuration
        self.accessorName = name
    }

    func arguments(output: URL) -> [String] {
        ["--local-tweaks", tweaks.path, "--output-folder", output.path, "--configuration-folder", configuration.path]
    }

    func outputFiles(in output: URL) -> [URL] {
        [output.appendingPathComponent("\(accessorName).swift"), output.appendingPathComponent("\(accessorName)+Constants.swift")]
    }
}
