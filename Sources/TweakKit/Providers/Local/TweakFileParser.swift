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
        guard data.count <= TweakInputLimits.tweaksFile else {
            let error = TweakInputLimits.tooLarge(file: file, size: data.count, limit: TweakInputLimits.tweaksFile, what: "a tweaks file")
            return Result(definitions: [], problems: [error])
        }
        var reader = Reader(file: file, source: source)
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data), maximumDepth: TweakInputLimits.jsonNestingDepth) { feature, member in
                if let feature {
                    reader.readStreamedVariable(member, feature: feature)
                } else {
                    reader.readStreamedFeature(member)
                }
            }
        } catch {
            let problem = TweakFileError(file: file, location: error.location, message: "\(syntaxProblem): \(error.message)")
            return Result(definitions: [], problems: [problem])
        }
        reader.finishStreaming(root)
        return Result(definitions: reader.definitions, problems: reader.problems)
    }

    /// Reads and checks tweaks from an already parsed document (for callers that inspected it first).
    package static func parse(root: JSONNode, file: String, source: String) -> Result {
        var reader = Reader(file: file, source: source)
        reader.read(root)
        return Result(definitions: reader.definitions, problems: reader.problems)
    }

    private struct Reader {
        let file: String
        let source: String
        var definitions: [TweakDefinition] = []
        var problems: [TweakFileError] = []

        mutating func problem(_ message: String, at location: SourceLocation?, feature: String? = nil, variable: String? = nil) {
            problems.append(TweakFileError(file: file, location: location, feature: feature, variable: variable, message: message))
        }

        mutating func read(_ root: JSONNode) {
            guard let features = root.members else {
                problem("the top level must be an object of features, found \(root.kindDescription)", at: root.location)
                return
            }
            if let toggles = root["featureToggles"], case .array(let entries) = toggles.kind {
                readToggleList(entries)
                return
            }
            for feature in features {
                guard let variables = feature.value.members else {
                    problem("a feature must be an object of variables, found \(feature.value.kindDescription)",
                            at: feature.value.location, feature: feature.key)
                    continue
                }
                for variable in variables {
                    readVariable(variable, feature: feature.key)
                }
            }
        }

        /// The toggle list, when a streamed document has one: it replaces every feature.
        var streamedToggles: [JSONNode]?

        /// A member of a streamed document's root, after its variables (if it is an object).
        mutating func readStreamedFeature(_ feature: JSONMember) {
            guard streamedToggles == nil else { return }
            if feature.key == "featureToggles", case .array(let entries) = feature.value.kind {
                streamedToggles = entries
                return
            }
            if feature.value.members == nil {
                problem("a feature must be an object of variables, found \(feature.value.kindDescription)",
                        at: feature.value.location, feature: feature.key)
            }
        }

        /// A variable of a streamed document, as ``read(_:)`` reads it.
        mutating func readStreamedVariable(_ member: JSONMember, feature: String) {
            guard streamedToggles == nil else { return }
            readVariable(member, feature: feature)
        }

        /// After a streamed document: what ``read(_:)`` does for a root that is not an object, or
        /// with a toggle list (the features read so far are dropped, as ``read(_:)`` never reads them).
        mutating func finishStreaming(_ root: JSONNode) {
            if root.members == nil {
                read(root)
            } else if let toggles = streamedToggles {
                definitions = []
                problems = []
                readToggleList(toggles)
            }
        }

        mutating func readVariable(_ member: JSONMember, feature: String) {
            let variable = member.key
            guard let members = member.value.members else {
                problem("a variable must be an object with a \"Value\", found \(member.value.kindDescription)",
                        at: member.value.location, feature: feature, variable: variable)
                return
            }
            let fields = Fields(members)
            guard let valueNode = fields.value else {
                problem("\"Value\" is missing", at: member.keyLocation, feature: feature, variable: variable)
                return
            }
            guard let value = valueNode.tweakValue, value.kind.isScalar else {
                problem("\"Value\" must be a Bool, number or String, found \(valueNode.kindDescription)",
                        at: valueNode.location, feature: feature, variable: variable)
                return
            }
            var ok = true
            func string(_ key: String, _ node: JSONNode?) -> String? {
                guard let node else { return nil }
                if case .string(let text) = node.kind { return text }
                problem("\"\(key)\" must be a String, found \(node.kindDescription)", at: node.location, feature: feature, variable: variable)
                ok = false
                return nil
            }
            let title = string("Title", fields.title)
            let description = string("Description", fields.description)
            let group = string("Group", fields.group)
            let propertyName = string("GeneratedPropertyName", fields.generatedPropertyName)
            var encrypted = false
            if let node = fields.encrypted {
                if case .bool(let flag) = node.kind {
                    encrypted = flag
                } else {
                    problem("\"Encrypted\" must be a Bool, found \(node.kindDescription)", at: node.location, feature: feature, variable: variable)
                    ok = false
                }
            }
            let owner = string("Owner", fields.owner)
            var declaredType: TweakContent.Kind?
            if let typeName = string("Type", fields.type) {
                if let kind = TweakContent.Kind(name: typeName), kind.isScalar {
                    declaredType = kind
                    if !encrypted, !TweakDefinition.value(value, fits: kind) {
                        problem("\"Value\" is \(value.kind.article) \(value.kind) but \"Type\" says \(kind)", at: valueNode.location, feature: feature, variable: variable)
                        ok = false
                    }
                } else {
                    problem("\"Type\" must be Bool, Int, Float, Double or String, found \"\(typeName)\"", at: fields.type?.location, feature: feature, variable: variable)
                    ok = false
                }
            }
            var expires: TweakDefinition.Day?
            if let text = string("Expires", fields.expires) {
                expires = TweakDefinition.Day(iso: text)
                if expires == nil {
                    problem("\"Expires\" must be an ISO date like 2025-06-30, found \"\(text)\"", at: fields.expires?.location, feature: feature, variable: variable)
                    ok = false
                }
            }
            guard ok else { return }
            let tweak = Tweak(feature: feature, variable: variable, content: value, title: title, description: description,
                              group: group, source: source, isEncrypted: encrypted, generatedPropertyName: propertyName)
            definitions.append(TweakDefinition(tweak: tweak, declaredType: declaredType, owner: owner, expires: expires, location: member.keyLocation))
        }

        /// The fields of one variable, found in one pass over its members.
        private struct Fields {
            var value, title, description, group, generatedPropertyName, encrypted, owner, type, expires: JSONNode?

            init(_ members: [JSONMember]) {
                for member in members {
                    switch member.key {
                    case "Value": value = member.value
                    case "Title": title = member.value
                    case "Description": description = member.value
                    case "Group": group = member.value
                    case "GeneratedPropertyName": generatedPropertyName = member.value
                    case "Encrypted": encrypted = member.value
                    case "Owner": owner = member.value
                    case "Type": type = member.value
                    case "Expires": expires = member.value
                    default: break
                    }
                }
            }
        }

        mutating func readToggleList(_ entries: [JSONNode]) {
            var seen = Set<String>()
            for entry in entries {
                guard entry.members != nil else {
                    problem("a feature toggle must be an object with \"feature\" and \"enabled\", found \(entry.kindDescription)", at: entry.location)
                    continue
                }
                guard let featureNode = entry["feature"], case .string(let feature) = featureNode.kind, !feature.isEmpty else {
                    problem("a feature toggle needs a non-empty String \"feature\"", at: entry.location)
                    continue
                }
                guard let enabledNode = entry["enabled"], case .bool(let enabled) = enabledNode.kind else {
                    problem("\"enabled\" must be a Bool", at: entry["enabled"]?.location ?? entry.location, feature: feature)
                    continue
                }
                guard seen.insert(feature).inserted else {
                    problem("feature \"\(feature)\" is listed twice", at: featureNode.location, feature: feature)
                    continue
                }
                let tweak = Tweak(feature: feature, variable: Tweak.enabledVariable, content: .bool(enabled), source: source)
                definitions.append(TweakDefinition(tweak: tweak, location: entry.location))
            }
        }
    }
}
