public import Foundation

/// Reads the two tweaks file formats TweakKit understands.
///
/// **JustTweak format**: feature → variable → fields.
/// ```json
/// { "ui_customization": {
///     "label_text": { "Title": "Label Text", "Description": "the main label", "Group": "UI",
///                     "Value": "Test value", "GeneratedPropertyName": "labelText" },
///     "secret": { "Value": "24 ton yletinifeD", "Encrypted": true } } }
/// ```
/// `Value` is required and must be a Bool, number or String; `Title`, `Description`, `Group`
/// and `GeneratedPropertyName` are optional strings, `Encrypted` an optional Bool.
///
/// Optional fields for code generation and lifecycle:
/// - `Type`: `Bool`, `Int`, `Float`, `Double` or `String`. Without it the type is the Value's
///   (a number with a fraction is a Double). An `Encrypted` tweak's Value is the encrypted text,
///   so its `Type` is the decrypted type (String when absent). A non-encrypted Value must fit its
///   `Type` (an Int fits Float and Double).
/// - `Owner`: who to ask about the tweak.
/// - `Expires`: an ISO date (`2025-06-30`) after which the tweak should be removed.
///
/// **Toggle list** (a `featureToggles` array at the top level):
/// ```json
/// { "featureToggles": [ { "feature": "addItem", "enabled": true } ] }
/// ```
/// Each entry becomes the tweak `<feature>.enabled`, which ``TweakManager/isFeatureEnabled(_:)`` reads.
public enum TweakFileParser {
    /// The result of reading a file: the tweaks that are valid, in file order, and every problem found.
    public struct Result: Sendable {
        /// Every valid tweak with its file-only fields, in file order.
        public var definitions: [TweakDefinition]
        /// Every problem found, in file order; empty when the file is valid.
        public var problems: [TweakFileError]

        /// The valid tweaks, in file order.
        public var tweaks: [Tweak] { definitions.map(\.tweak) }
    }

    /// Reads and checks the file at `url`. Never throws: a missing file or a syntax error is a problem.
    public static func parse(contentsOf url: URL, source: String? = nil) -> Result {
        let data: Data
        do {
            data = try TweakFileError.contents(of: url)
        } catch {
            return Result(definitions: [], problems: [error])
        }
        return parse(data: data, file: url.path, source: source ?? url.lastPathComponent)
    }

    /// Reads and checks tweaks from `data`; `file` names it in errors, `source` in ``Tweak/source``.
    public static func parse(data: Data, file: String, source: String) -> Result {
        parse(data: data, file: file, source: source, syntaxProblem: "syntax error")
    }

    /// ``parse(data:file:source:)``, naming a JSON syntax error `syntaxProblem` in its message.
    ///
    /// The same as parsing the document and then ``parse(root:file:source:)``, without holding the
    /// whole document's nodes: each variable is read as soon as the parser has it, so loading
    /// costs the tweaks and little more (a 16 MB file holds about 800,000 tweaks).
    package static func parse(data: Data, file: String, source: String, syntaxProblem: String) -> Result {
        let reader = read(data: data, file: file, source: source, syntaxProblem: syntaxProblem, keepsDefinitions: true)
        return Result(definitions: reader.definitions, problems: reader.problems)
    }

    /// The valid tweaks of the file at `url` and every problem found: what ``parse(contentsOf:source:)``
    /// finds, for a provider, which keeps only the tweaks. No ``TweakDefinition`` is made, nor a
    /// second array of the tweaks (on a 16 MB file, 800,000 of each).
    package static func tweaks(contentsOf url: URL, source: String) -> (tweaks: [Tweak], problems: [TweakFileError]) {
        let data: Data
        do {
            data = try TweakFileError.contents(of: url)
        } catch {
            return ([], [error])
        }
        return tweaks(data: data, file: url.path, source: source)
    }

    /// ``tweaks(contentsOf:source:)`` for `data`, which `file` names in errors.
    package static func tweaks(data: Data, file: String, source: String, syntaxProblem: String = "syntax error") -> (tweaks: [Tweak], problems: [TweakFileError]) {
        let reader = read(data: data, file: file, source: source, syntaxProblem: syntaxProblem, keepsDefinitions: false)
        return (reader.tweaks, reader.problems)
    }

    private static func read(data: Data, file: String, source: String, syntaxProblem: String, keepsDefinitions: Bool) -> TweakFileReader {
        var reader = TweakFileReader(file: file, source: source, keepsDefinitions: keepsDefinitions)
        guard data.count <= TweakInputLimits.tweaksFile else {
            reader.problems = [TweakInputLimits.tooLarge(file: file, size: data.count, limit: TweakInputLimits.tweaksFile, what: "a tweaks file")]
            return reader
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data), maximumDepth: TweakInputLimits.jsonNestingDepth, streamingTo: &reader)
        } catch {
            let problem = TweakFileError(file: file, location: error.location, message: "\(syntaxProblem): \(error.message)")
            reader = TweakFileReader(file: file, source: source, keepsDefinitions: keepsDefinitions)
            reader.problems = [problem]
            return reader
        }
        reader.finishStreaming(root)
        return reader
    }

    /// Reads and checks tweaks from an already parsed document (for callers that inspected it first).
    package static func parse(root: JSONNode, file: String, source: String) -> Result {
        var reader = TweakFileReader(file: file, source: source, keepsDefinitions: true)
        reader.read(root)
        return Result(definitions: reader.definitions, problems: reader.problems)
    }
}
