public import Foundation
public import TweakKit

/// Single flag definitions, as a shared store keeps them and an API receives them.
extension FlagdDefinitions {
    /// Checks one flag definition (`state`, `variants`, `defaultVariant`, `targeting`, `metadata`)
    /// exactly as a flag of a flagd file is checked, and returns it as content to store.
    ///
    /// ```swift
    /// let definition = try FlagdDefinitions.checkedDefinition(Data(#"{"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}"#.utf8), key: "new-checkout")
    /// ```
    ///
    /// A definition may not use `$ref` (there are no shared `$evaluators` beside a single flag).
    ///
    /// - Parameters:
    ///   - data: the definition's JSON.
    ///   - key: the flag's key, named in errors.
    ///   - source: what the definition is called in errors (`request body`, say).
    /// - Throws: `TweakFileError` naming the key and the path of the fault (`targeting.if[1]:
    ///   unknown operator "bogus"`, `"defaultVariant" "x" is not one of the variants (off, on)`),
    ///   with its line and column in `data`.
    public static func checkedDefinition(_ data: Data, key: String, source: String = "definition") throws(TweakFileError) -> TweakContent {
        let node = try TweakFileError.json(from: data, file: source, maximumSize: maximumInputSize, what: "a flag definition")
        var compiler = LogicCompiler()
        do {
            _ = try flag(key, node, compiler: &compiler)
        } catch {
            throw TweakFileError(file: source, location: error.location, feature: key, message: error.message)
        }
        return node.content
    }

    /// Definitions made of stored flags: each value one flag's definition, by key. A definition that
    /// breaks the schema is kept as an invalid flag (see ``problems``), as in a file.
    ///
    /// ```swift
    /// let definitions = try FlagdDefinitions(storedDefinitions: ["new-checkout": definition], file: "store")
    /// ```
    ///
    /// - Throws: `TweakFileError` when they hold a number JSON cannot write or are larger than
    ///   ``maximumInputSize`` together.
    public init(storedDefinitions: [String: TweakContent], file: String) throws(TweakFileError) {
        let text: String
        do {
            text = try TweakContent.object(["flags": .object(storedDefinitions)]).jsonText()
        } catch {
            throw TweakFileError(file: file, message: "the stored flag definitions cannot be written as JSON: \(error)")
        }
        try self.init(data: Data(text.utf8), file: file)
    }
}

extension FlagdDefinitions {
    /// No flags, from `file`.
    package init(emptyFile file: String) {
        flags = [:]
        invalidFlags = [:]
        invalidFlagIDs = [:]
        addresses = [:]
        problems = []
        self.file = file
    }
}
