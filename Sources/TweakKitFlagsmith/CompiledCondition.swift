import TweakKitEngineSupport

/// Where a condition's value comes from.
enum PropertySource: Sendable {
    /// A trait by name.
    case trait(String)
    /// The identity's key (a percentage split with no property).
    case identityKey
    /// A JSONPath: a trait named as the whole path first, then the path into the context.
    case path(whole: String, into: PathTarget)
}

/// What a JSONPath reaches.
enum PathTarget: Sendable {
    case identifier
    case identityKey
    /// A trait, then `rest` into it.
    case trait(String, rest: [PropertyPath.Step])
    /// A value fixed by the document (`$.environment.name`), or nothing.
    case constant(ContextValue?)
}

/// A condition, read once: its operand in each type the engine may cast it to. A class: rules
/// hold it by reference, so checking one copies nothing (`Flagsmith.Flag` benchmark).
final class CompiledCondition: Sendable {
    let source: PropertySource
    let `operator`: ConditionOperator
    /// `str(value)`: `"None"` for null.
    let text: String
    let isNull: Bool
    /// The operand for a semantic-version comparison (`"1.2.3:semver"`); `isSemver` without a
    /// version is a comparison that fails.
    let isSemver: Bool
    let version: FlagsmithSemanticVersion?
    let integer: Int?
    let float: Double?
    /// The operand compared with a Bool: anything but `"False"` and `"false"` is true.
    let boolean: Bool
    let regex: BoundedRegularExpression?
    let members: InMembers?
    let modulo: (divisor: Double, remainder: Double)?

    init(_ definition: ConditionDefinition, document: FlagsmithDefinitions) {
        self.operator = definition.operator
        let text: String
        switch definition.value {
        case .string(let value):
            text = value
            isNull = false
        case .none:
            text = "None"
            isNull = true
        case .list(let values):
            text = PythonText.repr(.array(values))
            isNull = false
        }
        self.text = text
        if definition.property.isEmpty && definition.operator == .percentageSplit {
            source = .identityKey
        } else if definition.property.hasPrefix("$."), let steps = PropertyPath.parse(definition.property) {
            source = .path(whole: definition.property, into: Self.target(steps, document))
        } else {
            source = .trait(definition.property)
        }
        let isSemver = !isNull && text.unicodeScalars.count >= 7 && text.hasSuffix(":semver")
        self.isSemver = isSemver
        version = isSemver ? FlagsmithSemanticVersion(String(text.unicodeScalars.dropLast(7))) : nil
        integer = isNull ? nil : PythonText.int(text)
        float = isNull ? nil : PythonText.double(text)
        boolean = isNull || (text != "False" && text != "false")
        var regex: BoundedRegularExpression?
        var members: InMembers?
        var modulo: (divisor: Double, remainder: Double)?
        switch definition.operator {
        case .regex:
            regex = try? BoundedRegularExpression(PythonRegex.translate(text))
        case .in:
            members = InMembers(definition.value)
        case .modulo:
            let parts = text.split(separator: "|", omittingEmptySubsequences: false)
            if !isNull, !text.isEmpty, parts.count == 2, let divisor = PythonText.double(String(parts[0])),
               let remainder = PythonText.double(String(parts[1])), divisor != 0 {
                modulo = (divisor, remainder)
            }
        default: break
        }
        self.regex = regex
        self.members = members
        self.modulo = modulo
    }

    private static func target(_ steps: [PropertyPath.Step], _ document: FlagsmithDefinitions) -> PathTarget {
        guard case .name(let root)? = steps.first else { return .constant(nil) }
        if root == "identity" {
            switch steps.dropFirst().first {
            case .name("identifier")?: return steps.count == 2 ? .identifier : .constant(nil)
            case .name("key")?: return steps.count == 2 ? .identityKey : .constant(nil)
            case .name("traits")?:
                guard steps.count >= 3, case .name(let trait) = steps[2] else { return .constant(nil) }
                return .trait(trait, rest: Array(steps.dropFirst(3)))
            default: return .constant(nil)
            }
        }
        // `$.flags` (flags read by other flags' segments) is not read: nothing.
        if root == "flags" { return .constant(nil) }
        guard let value = Self.walk(document.document, steps) else { return .constant(nil) }
        return .constant(Self.scalar(value))
    }

    /// `value` at `steps`, or `nil`.
    static func walk(_ value: JSONValue, _ steps: some Collection<PropertyPath.Step>) -> JSONValue? {
        var current = value
        for step in steps {
            switch (step, current) {
            case (.name(let name), .object(let members)):
                guard let member = members.last(where: { $0.key == name }) else { return nil }
                current = member.value
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                current = elements[position]
            default: return nil
            }
        }
        return current
    }

    /// A value a path found, as a condition reads it: only a scalar counts.
    static func scalar(_ value: JSONValue) -> ContextValue? {
        switch value {
        case .array, .object: nil
        default: ContextValue.map(value)
        }
    }
}

/// An `IN` condition's members: strings, compared by code point; hashed when there are many.
struct InMembers: Sendable {
    private var few: [String] = []
    private var many: Set<String> = []
    private var hashed = false

    init(_ value: ConditionValue) {
        var members: [String] = []
        switch value {
        case .none: break
        case .list(let values): members = values.map(Self.pythonString)
        case .string(let text):
            if text.hasPrefix("["), let parsed = try? JSONValue(jsonText: text), case .array(let values) = parsed {
                members = values.map(Self.pythonString)
            } else {
                members = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
        }
        if members.count > 8 {
            hashed = true
            many = Set(members)
        } else {
            few = members
        }
    }

    /// `str(v)` of a member as the engine takes it.
    private static func pythonString(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return PythonText.repr(value)
    }

    func contains(_ text: String) -> Bool {
        if hashed {
            guard let index = many.firstIndex(of: text) else { return false }
            return CodePointOrder.equal(many[index], text)
        }
        for member in few where CodePointOrder.equal(member, text) { return true }
        return false
    }
}
