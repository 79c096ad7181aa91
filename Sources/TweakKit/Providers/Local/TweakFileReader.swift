/// Reads a tweaks file's features and variables into tweaks and problems, for ``TweakFileParser``:
/// from a parsed document (``read(_:)``), or streamed from the parser as it reads the text.
struct TweakFileReader: JSONStreamReader {
    let file: String
    let source: String
    /// Whether each tweak is kept as a ``TweakDefinition`` (in ``definitions``) or as a tweak alone
    /// (in ``tweaks``), as a provider keeps it.
    let keepsDefinitions: Bool
    var definitions: [TweakDefinition] = []
    var tweaks: [Tweak] = []
    var problems: [TweakFileError] = []

    init(file: String, source: String, keepsDefinitions: Bool) {
        self.file = file
        self.source = source
        self.keepsDefinitions = keepsDefinitions
    }

    mutating func problem(_ message: String, at location: SourceLocation?, feature: String? = nil, variable: String? = nil) {
        problems.append(TweakFileError(file: file, location: location, feature: feature, variable: variable, message: message))
    }

    private mutating func append(_ tweak: Tweak, declaredType: TweakContent.Kind? = nil, owner: String? = nil,
                                 expires: TweakDefinition.Day? = nil, location: SourceLocation) {
        if keepsDefinitions {
            definitions.append(TweakDefinition(tweak: tweak, declaredType: declaredType, owner: owner, expires: expires, location: location))
        } else {
            tweaks.append(tweak)
        }
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

    // MARK: Streamed

    /// The toggle list, when a streamed document has one: it replaces every feature.
    private var streamedToggles: [JSONNode]?
    /// The fields of the variable being streamed, so far.
    private var streamedFields = TweakFileFields()

    /// A member of a streamed document's root, after its variables (if it is an object).
    mutating func rootMember(_ feature: JSONMember) {
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

    /// A variable of a streamed document that is not an object, as ``read(_:)`` reads it.
    mutating func member(_ member: JSONMember, of feature: String) {
        guard streamedToggles == nil else { return }
        readVariable(member, feature: feature)
    }

    mutating func innerMember(key: String, keyLocation: SourceLocation, value: JSONNode) {
        streamedFields.add(key, value)
    }

    /// A variable of a streamed document that is an object, its fields read: as ``read(_:)`` reads it.
    mutating func endOfObject(key: String, keyLocation: SourceLocation, of feature: String) {
        let fields = streamedFields
        streamedFields = TweakFileFields()
        guard streamedToggles == nil else { return }
        readVariable(fields, variable: key, at: keyLocation, feature: feature)
    }

    /// After a streamed document: what ``read(_:)`` does for a root that is not an object, or
    /// with a toggle list (the features read so far are dropped, as ``read(_:)`` never reads them).
    mutating func finishStreaming(_ root: JSONNode) {
        if root.members == nil {
            read(root)
        } else if let toggles = streamedToggles {
            definitions = []
            tweaks = []
            problems = []
            readToggleList(toggles)
        }
    }

    // MARK: Variables

    mutating func readVariable(_ member: JSONMember, feature: String) {
        guard let members = member.value.members else {
            problem("a variable must be an object with a \"Value\", found \(member.value.kindDescription)",
                    at: member.value.location, feature: feature, variable: member.key)
            return
        }
        var fields = TweakFileFields()
        for field in members { fields.add(field.key, field.value) }
        readVariable(fields, variable: member.key, at: member.keyLocation, feature: feature)
    }

    /// The variable `variable` of `feature`, an object with `fields`, its name written at `keyLocation`.
    mutating func readVariable(_ fields: TweakFileFields, variable: String, at keyLocation: SourceLocation, feature: String) {
        guard let valueNode = fields.value else {
            problem("\"Value\" is missing", at: keyLocation, feature: feature, variable: variable)
            return
        }
        guard let value = valueNode.tweakValue, value.kind.isScalar else {
            problem("\"Value\" must be a Bool, number or String, found \(valueNode.kindDescription)",
                    at: valueNode.location, feature: feature, variable: variable)
            return
        }
        // Most tweaks of a large file have only a "Value": no field to check.
        if !fields.hasMore {
            append(Tweak(feature: feature, variable: variable, content: value, source: source), location: keyLocation)
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
        append(tweak, declaredType: declaredType, owner: owner, expires: expires, location: keyLocation)
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
            append(tweak, location: entry.location)
        }
    }
}
