@_spi(TweakKitEngines) public import TweakKit
public import TweakKitEngineSupport

/// Who a flag is decided for: one context of a kind (`user`, `org`, …) or several at once (a
/// multi-kind context), in LaunchDarkly's JSON form; a JSON object without `kind` is a legacy
/// user.
///
/// ```swift
/// let user = LaunchDarklyContext(kind: "user", key: "user-1", attributes: ["plan": "pro"])
/// let multi = LaunchDarklyContext(json: ["kind": "multi", "user": ["key": "u1"], "org": ["key": "acme"]])
/// let legacy = LaunchDarklyContext(json: ["key": "u1", "custom": ["plan": "pro"]])
/// LaunchDarklyContext(json: ["kind": "user"]).error   // "context key must not be empty"
/// ```
///
/// A context LaunchDarkly would refuse (no key, a bad kind, an attribute of the wrong type) is
/// kept with its ``error``; evaluating for it gives the `USER_NOT_SPECIFIED` error.
public struct LaunchDarklyContext: Sendable {
    /// One kind's part of a context. A class: an evaluation reads it with one retain, not one for
    /// each of its strings and its dictionary.
    final class Single: Sendable {
        let kind: String
        let key: String
        let name: String?
        let anonymous: Bool
        let attributes: [String: JSONValue]

        init(kind: String, key: String, name: String?, anonymous: Bool, attributes: [String: JSONValue]) {
            (self.kind, self.key, self.name, self.anonymous, self.attributes) = (kind, key, name, anonymous, attributes)
        }

        /// The attribute `name` as clauses read it: `key`, `kind`, `name` and `anonymous` are the
        /// built-in ones; `null` is missing.
        func value(_ name: String) -> JSONValue? {
            switch name {
            case "key": return .string(key)
            case "kind": return .string(kind)
            case "name": return self.name.map(JSONValue.string)
            case "anonymous": return .bool(anonymous)
            default: return FewKeys.value(in: attributes, forKey: name)
            }
        }

        /// The value a clause's attribute reaches (its first name resolved at load, then `rest`),
        /// through objects only; `nil` when missing or `null`.
        func value(_ attribute: ContextAttribute, name: String, rest: [String]) -> JSONValue? {
            var value: JSONValue
            switch attribute {
            case .key: value = .string(key)
            case .kind: value = .string(kind)
            case .name:
                guard let name = self.name else { return nil }
                value = .string(name)
            case .anonymous: value = .bool(anonymous)
            case .custom:
                guard let found = FewKeys.value(in: attributes, forKey: name) else { return nil }
                value = found
            case .invalid: return nil
            }
            for index in rest.indices {
                guard case .object = value, let next = value[rest[index]] else { return nil }
                value = next
            }
            return value.isNull ? nil : value
        }

        /// The value a reference reaches, through objects only; `nil` when missing or `null`.
        func value(_ components: [String]) -> JSONValue? {
            guard let first = components.first, var value = self.value(first) else { return nil }
            for component in components.dropFirst() {
                guard case .object = value, let next = value[component] else { return nil }
                value = next
            }
            return value.isNull ? nil : value
        }
    }

    /// The individual contexts, sorted by kind; empty when ``error`` is set.
    let contexts: [Single]
    /// Why LaunchDarkly would refuse this context; `nil` for a valid one.
    public let error: String?

    /// A context of one kind.
    ///
    /// ```swift
    /// LaunchDarklyContext(kind: "org", key: "acme", attributes: ["tier": "gold"])
    /// ```
    public init(kind: String = "user", key: String, name: String? = nil, anonymous: Bool = false, attributes: [String: JSONValue] = [:]) {
        var object: [JSONValue.Member] = [.init(key: "kind", value: .string(kind)), .init(key: "key", value: .string(key))]
        if let name { object.append(.init(key: "name", value: .string(name))) }
        if anonymous { object.append(.init(key: "anonymous", value: .bool(true))) }
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { object.append(.init(key: name, value: value)) }
        self.init(json: .object(object))
    }

    private init(contexts: [Single], error: String?) {
        (self.contexts, self.error) = (contexts, error)
    }

    /// A context from its JSON form (see the type's documentation).
    public init(json: JSONValue) {
        switch Self.parse(json) {
        case .success(let contexts): (self.contexts, self.error) = (contexts, nil)
        case .failure(let failure): (self.contexts, self.error) = ([], failure.message)
        }
    }

    /// A context from JSON text; a text that is not a JSON object gives an invalid context.
    public init(jsonText: String) {
        do {
            self.init(json: try JSONValue(jsonText: jsonText))
        } catch {
            self.init(contexts: [], error: "not JSON: \(error)")
        }
    }

    /// The context from a TweakKit evaluation context: the targeting key is the key; an attribute
    /// `kind` (a string) is the kind (by default `user`); the other attributes are attributes.
    ///
    /// ```swift
    /// LaunchDarklyContext(EvaluationContext(targetingKey: "u1", attributes: ["plan": "pro"]))
    /// ```
    public init(_ context: EvaluationContext) {
        var attributes: [String: JSONValue] = [:]
        attributes.reserveCapacity(context.attributes.count)
        var kind = "user"
        var plain = true
        for (name, value) in context.attributes {
            if name == "kind", case .string(let text) = value { kind = text; continue }
            if Self.builtInNames.contains(name) { plain = false }
            let converted = JSONValue(value)
            if converted.isNull { plain = false }
            attributes[name] = converted
        }
        let key = context.targetingKey ?? ""
        // Attributes that are only attributes: the context directly, as its JSON form would read
        // (no JSON object built and parsed per decision: `LaunchDarkly.ManagerFeatureEnabled`).
        guard plain, kind != "multi" else { self.init(kind: kind, key: key, attributes: attributes); return }
        if let error = Self.kindError(kind) ?? (key.isEmpty ? Self.emptyKey : nil) {
            self.init(contexts: [], error: error)
        } else {
            self.init(contexts: [Single(kind: kind, key: key, name: nil, anonymous: false, attributes: attributes)], error: nil)
        }
    }

    /// Member names a context's JSON form reads as more than an attribute (or refuses).
    private static let builtInNames: Set<String> = ["key", "kind", "name", "anonymous", "_meta", ""]
    private static let emptyKey = "context key must not be None or empty"

    /// Whether the context can be evaluated for.
    public var isValid: Bool { error == nil }

    /// The kinds of the context, sorted.
    public var kinds: [String] { contexts.map(\.kind) }

    /// The context of `kind`, if present.
    func individual(_ kind: String) -> Single? {
        individualIndex(kind).map { contexts[$0] }
    }

    /// The index in ``contexts`` of the context of `kind`: read in place, with no copy of it.
    func individualIndex(_ kind: String) -> Int? {
        for index in contexts.indices where contexts[index].kind.hasSameCodePoints(as: kind) { return index }
        return nil
    }

    struct Failure: Error { var message: String }

    private static func parse(_ json: JSONValue) -> Result<[Single], Failure> {
        guard case .object(let members) = json else { return .failure(Failure(message: "a context must be a JSON object")) }
        guard let kindValue = json["kind"] else { return legacyUser(json).map { [$0] } }
        guard case .string(let kind) = kindValue else { return .failure(Failure(message: "invalid data type for \"kind\"")) }
        guard kind == "multi" else { return single(members, kind: kind).map { [$0] } }
        var contexts: [Single] = []
        var errors: [String] = []
        for member in members where member.key != "kind" {
            guard case .object(let inner) = member.value else { return .failure(Failure(message: "invalid data type for \"\(member.key)\"")) }
            switch single(inner, kind: member.key) {
            case .success(let context): contexts.append(context)
            case .failure(let failure): errors.append(failure.message)
            }
        }
        if contexts.count + errors.count == 1 {
            return errors.first.map { .failure(Failure(message: $0)) } ?? .success(contexts)
        }
        if contexts.isEmpty && errors.isEmpty { return .failure(Failure(message: "multi-context must contain at least one kind")) }
        if !errors.isEmpty { return .failure(Failure(message: errors.joined(separator: ", "))) }
        contexts.sort { $0.kind < $1.kind }
        for index in contexts.indices.dropFirst() where contexts[index].kind == contexts[index - 1].kind {
            return .failure(Failure(message: "multi-kind context cannot have same kind more than once"))
        }
        return .success(contexts)
    }

    private static func kindError(_ kind: String) -> String? {
        if kind.isEmpty { return "context kind must not be empty" }
        if kind == "kind" { return "\"kind\" is not a valid context kind" }
        if kind == "multi" { return "context of kind \"multi\" must be created as a multi-context" }
        let allowed = kind.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        return allowed ? nil : "context kind contains disallowed characters"
    }

    /// One kind's context from its JSON members, as the SDKs read it.
    private static func single(_ members: [JSONValue.Member], kind initialKind: String) -> Result<Single, Failure> {
        var kind = initialKind
        var key = ""
        var name: String?
        var anonymous = false
        var attributes: [String: JSONValue] = [:]
        for member in members {
            // Written only when needed: a context read per decision has its members checked each time.
            var typeError: Failure { Failure(message: "invalid data type for \"\(member.key)\"") }
            switch member.key {
            case "": return .failure(typeError)
            case "_meta":
                switch member.value {
                case .null: continue
                case .object:
                    if let privateNames = member.value["privateAttributes"], !privateNames.isNull {
                        guard case .array(let names) = privateNames, names.allSatisfy({ $0.string != nil }) else {
                            return .failure(Failure(message: "invalid data type for \"privateAttributes\""))
                        }
                    }
                default: return .failure(typeError)
                }
            case "key":
                guard case .string(let text) = member.value else { return .failure(typeError) }
                key = text
            case "kind":
                guard case .string(let text) = member.value else { return .failure(typeError) }
                kind = text
            case "name":
                switch member.value {
                case .null: name = nil
                case .string(let text): name = text
                default: return .failure(typeError)
                }
            case "anonymous":
                guard case .bool(let flag) = member.value else { return .failure(typeError) }
                anonymous = flag
            default:
                if member.value.isNull { attributes[member.key] = nil } else { attributes[member.key] = member.value }
            }
        }
        if let error = kindError(kind) { return .failure(Failure(message: error)) }
        if key.isEmpty { return .failure(Failure(message: emptyKey)) }
        return .success(Single(kind: kind, key: key, name: name, anonymous: anonymous, attributes: attributes))
    }

    /// A legacy user (no `kind`): `key` (may be empty), the built-in string attributes, `anonymous`,
    /// and the members of `custom`; `secondary` and `privateAttributeNames` are not attributes.
    private static func legacyUser(_ json: JSONValue) -> Result<Single, Failure> {
        guard case .string(let key)? = json["key"] else { return .failure(Failure(message: "a legacy user must have a string key")) }
        var attributes: [String: JSONValue] = [:]
        var name: String?
        for builtIn in ["name", "firstName", "lastName", "email", "country", "avatar", "ip"] {
            switch json[builtIn] {
            case nil, .null?: continue
            case .string(let text)?: if builtIn == "name" { name = text } else { attributes[builtIn] = .string(text) }
            default: return .failure(Failure(message: "invalid data type for \"\(builtIn)\""))
            }
        }
        var anonymous = false
        switch json["anonymous"] {
        case nil, .null?: break
        case .bool(let flag)?: anonymous = flag
        default: return .failure(Failure(message: "invalid data type for \"anonymous\""))
        }
        switch json["custom"] {
        case nil, .null?: break
        case .object(let members)?:
            for member in members where !member.value.isNull && !["key", "kind", "name", "anonymous", "_meta", ""].contains(member.key) {
                if attributes[member.key] == nil { attributes[member.key] = member.value }
            }
        default: return .failure(Failure(message: "invalid data type for \"custom\""))
        }
        return .success(Single(kind: "user", key: key, name: name, anonymous: anonymous, attributes: attributes))
    }
}
