import ArgumentParser
import Foundation
import TweakCodegenCommands
import TweakKit
import TweakKitFlagd
import TweakKitServer
import TweakKitStore

extension Serve {
    /// The variable holding the tokens file's JSON, for containers.
    static let tokensVariable = "TWEAK_SERVE_TOKENS"

    /// The named tokens of `--tokens FILE` or ``tokensVariable``; none when neither is given.
    static func namedTokens(file: URL?, environment: [String: String]) throws -> [EditorToken] {
        let variable = environment[tokensVariable].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        switch (file, variable) {
        case (nil, nil):
            return []
        case (.some, .some):
            throw ValidationError("--tokens FILE and \(tokensVariable) both give tokens: use one of them")
        case (let file?, nil):
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw ValidationError("--tokens \(file.relativePath): cannot read the file (\(FileManager.default.fileExists(atPath: file.path) ? "not readable" : "no such file"))")
            }
            do {
                return try EditorToken.list(json: data, source: file.relativePath)
            } catch {
                throw ValidationError("--tokens \(error)")
            }
        case (nil, let text?):
            do {
                return try EditorToken.list(json: Data(text.utf8), source: tokensVariable)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// Copies into the store each flag of the flagd files that the store has never held: the
    /// store is seeded once, and what is edited there afterwards is never overwritten by a file.
    /// A flag that cannot stand alone (it uses `$ref`) stays served from its file only.
    static func seedFlags(from files: [URL], into store: StoreTweakProvider) async {
        for url in files {
            guard let data = try? Data(contentsOf: url), let root = try? TweakContent(jsonText: String(decoding: data, as: UTF8.self)),
                  case .object(let fields) = root, case .object(let flags)? = fields["flags"]
            else { continue }   // the provider reading the file has said what is wrong with it
            var seeded: [String] = []
            for key in flags.keys.sorted() {
                guard let definition = flags[key], store.storedFlagDefinition(key: key) == nil else { continue }
                do {
                    // A key with any history was there once (and perhaps removed on purpose): left alone.
                    guard try await store.flagDefinitionHistory(key: key, limit: 1).isEmpty else { continue }
                    let text = try definition.jsonText()
                    let checked = try FlagdDefinitions.checkedDefinition(Data(text.utf8), key: key, source: url.relativePath)
                    // Expecting version 0: another tweak serve seeding at the same moment wins, once.
                    try await store.commitFlagDefinition(key: key, definition: checked, expectedVersion: 0, author: "seed", reason: "seeded from \(url.lastPathComponent)")
                    seeded.append(key)
                } catch is TweakVersionConflict {
                    continue
                } catch {
                    printWarning("flag \(key) of \(url.relativePath) is served from the file only, not kept in the store: \(error)")
                }
            }
            if !seeded.isEmpty {
                FileHandle.standardError.write(Data("seeded the store with \(seeded.count) flag\(seeded.count == 1 ? "" : "s") of \(url.relativePath)\n".utf8))
            }
        }
    }
}
