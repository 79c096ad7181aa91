@_spi(TweakKitEngines) import TweakKit

/// What a rule's `var` reads: a flag evaluation's context, read in place, or a JSON value (the
/// data a caller passes, or the element `some`, `map` and the like visit).
///
/// Reading the context in place is what keeps an evaluation from copying every attribute into a
/// `LogicValue` object first: `{"var": "country"}` is one dictionary lookup in
/// ``EvaluationContext/attributes``. A read of an array or object attribute converts it (each
/// time), and a read of `$flagd` builds its small object.
enum LogicData {
    case context(LogicContext)
    case value(LogicValue)

    /// The whole data object (`{"var": ""}`); for a context, built on each call.
    var whole: LogicValue {
        switch self {
        case .context(let context): context.object
        case .value(let value): value
        }
    }

    /// The value at `path` (object members, or array positions as decimal text), `nil` when a
    /// step is missing. With no keys, the whole data.
    func value(at path: VariablePath) -> LogicValue? {
        let keys = path.keys
        guard let first = keys.first else { return whole }
        var current: LogicValue
        switch self {
        case .context(let context):
            if case .flagd = path.root, keys.count == 2 { return context.flagdMember(keys[1]) }
            guard let value = context.member(path.root) else { return nil }
            current = value
        case .value(let value):
            guard let next = Self.step(value, first) else { return nil }
            current = next
        }
        var index = keys.index(after: keys.startIndex)
        while index < keys.endIndex {
            guard let next = Self.step(current, keys[index]) else { return nil }
            current = next
            index = keys.index(after: index)
        }
        return current
    }

    /// The member `name` (an attribute of a context), as ``value(at:)`` reads a path of that one
    /// key when it is neither `targetingKey` nor `$flagd` (a context serves those itself: read
    /// them through ``value(at:)``).
    func member(named name: String) -> LogicValue? {
        assert(name != "targetingKey" && name != "$flagd", "\(name) is read through value(at:)")
        return switch self {
        case .context(let context): context.attribute(name)
        case .value(let value): Self.step(value, name)
        }
    }

    private static func step(_ value: LogicValue, _ key: String) -> LogicValue? {
        switch value {
        case .object:
            return value[key]
        case .array(let elements):
            guard let index = Int(key), elements.indices.contains(index) else { return nil }
            return elements[index]
        default:
            return nil
        }
    }
}

/// A flag evaluation's data, read in place: the context's attributes, `targetingKey` (the
/// context's, when it has one, over an attribute of that name), and `$flagd` with `flagKey` and
/// `timestamp` (over any attribute of that name).
struct LogicContext {
    let context: EvaluationContext
    let flagKey: String
    /// Whole seconds since 1970.
    let timestamp: Double

    /// One member of the data object.
    func member(_ root: VariablePath.Root) -> LogicValue? {
        switch root {
        case .targetingKey:
            if let targetingKey = context.targetingKey { return .string(targetingKey) }
            return attribute("targetingKey")
        case .flagd:
            return flagd
        case .attribute(let key):
            return attribute(key)
        }
    }

    /// The context's attribute `name`, converted.
    func attribute(_ name: String) -> LogicValue? {
        FewKeys.value(in: context.attributes, forKey: name).map { LogicValue($0) }
    }

    /// The targeting key `fractional` buckets by: the `targetingKey` member when it is a string.
    var targetingKey: String? {
        if case .string(let key)? = member(.targetingKey) { return key }
        return nil
    }

    /// `$flagd.<name>` without building the `$flagd` object: `flagKey`, `timestamp`, or nothing.
    func flagdMember(_ name: String) -> LogicValue? {
        switch name {
        case "flagKey": .string(flagKey)
        case "timestamp": .double(timestamp)
        default: nil
        }
    }

    private var flagd: LogicValue {
        ["flagKey": .string(flagKey), "timestamp": .double(timestamp)]
    }

    /// The whole data object, as a rule that reads `{"var": ""}` sees it.
    /// Members sorted by key; the context's `targetingKey` and `$flagd` over attributes of those names.
    var object: LogicValue {
        var data = context.attributes.mapValues { LogicValue($0) }
        if let targetingKey = context.targetingKey {
            data["targetingKey"] = .string(targetingKey)
        }
        data["$flagd"] = flagd
        return .object(data.sorted { $0.key < $1.key }.map { LogicValue.Member(key: $0.key, value: $0.value) })
    }
}

/// The keys of a `var` path, with its first key sorted out once: a flag's context serves
/// `targetingKey` and `$flagd` itself, any other name from its attributes. A class, so that a
/// rule's `var` hands its path on with one retain rather than one per key.
final class VariablePath: Sendable {
    enum Root: Sendable {
        case targetingKey, flagd
        case attribute(String)
    }

    let keys: [String]
    let root: Root

    init(_ keys: [String]) {
        self.keys = keys
        switch keys.first {
        case "targetingKey"?: root = .targetingKey
        case "$flagd"?: root = .flagd
        case let key?: root = .attribute(key)
        case nil: root = .attribute("")
        }
    }
}
