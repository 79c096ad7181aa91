public import TweakKit
import TweakKitEngineSupport

/// A Firebase Remote Config server template: named conditions in priority order and
/// parameters, evaluated locally with Firebase's exact answers (as firebase-admin's server-side
/// Remote Config does), without the Firebase SDK.
///
/// ```swift
/// let template = try FirebaseTemplate(contentsOf: templateURL)
/// let context = EvaluationContext(targetingKey: "user-42", attributes: ["app_version": "5.3.1"])
/// let value = template.value(forKey: "checkout__new_flow", context: context, inAppDefaults: ["checkout__new_flow": false])
/// value.asBool     // true
/// value.source     // .remote
/// ```
///
/// Parsing refuses what would make evaluation meaningless, with the place and the problem (see
/// ``init(data:source:)``); what Firebase ignores (unknown condition types and operators,
/// `version`, `etag`, `parameterGroups`) is ignored.
public struct FirebaseTemplate: Sendable {
    /// The named conditions; a parameter takes the conditional value of the first one (in this order) that is true.
    public private(set) var conditions: [FirebaseNamedCondition]
    /// The parameters, in template order.
    public private(set) var parameters: [FirebaseParameter]
    /// Where each parameter's key was written, for messages (empty for templates made in code).
    let keyLocations: [String: SourceLocation]
    let regexes: FirebaseRegexCache
    private let parameterIndex: [String: Int]
    /// For each parameter (by offset), its conditional values in condition order: resolving walks
    /// this list instead of looking each condition's name up in the parameter's dictionary.
    let choices: [[ConditionalChoice]]

    /// A parameter's conditional value for the condition at `offset` in ``conditions``.
    struct ConditionalChoice: Sendable {
        let offset: Int
        let value: FirebaseParameterValue
    }

    /// A template made in code: conditions in priority order, parameters in template order.
    public init(conditions: [FirebaseNamedCondition], parameters: [FirebaseParameter]) {
        self.init(conditions: conditions, parameters: parameters, keyLocations: [:])
    }

    init(conditions: [FirebaseNamedCondition], parameters: [FirebaseParameter], keyLocations: [String: SourceLocation]) {
        self.conditions = conditions
        self.parameters = parameters
        self.keyLocations = keyLocations
        var index: [String: Int] = [:]
        for (offset, parameter) in parameters.enumerated() where index[parameter.key] == nil { index[parameter.key] = offset }
        self.parameterIndex = index
        self.choices = parameters.map { parameter in
            conditions.enumerated().compactMap { offset, named in
                parameter.conditionalValues[named.name].map { ConditionalChoice(offset: offset, value: $0) }
            }
        }
        self.regexes = FirebaseRegexCache(patterns: conditions.flatMap { Self.regexPatterns(in: $0.condition) })
    }

    /// The parameter named `key`.
    public func parameter(forKey key: String) -> FirebaseParameter? {
        parameterIndex[key].map { parameters[$0] }
    }

    /// The offset in ``parameters`` of the parameter named `key`.
    func parameterOffset(forKey key: String) -> Int? { parameterIndex[key] }

    private static func regexPatterns(in condition: FirebaseCondition) -> [String] {
        switch condition {
        case .or(let conditions), .and(let conditions): conditions.flatMap(regexPatterns)
        case .customSignal(let signal) where signal.customSignalOperator == .stringContainsRegex: signal.targets
        default: []
        }
    }
}

/// One parameter of a template.
public struct FirebaseParameter: Sendable, Hashable {
    /// The key (Firebase allows letters, digits and underscores).
    public var key: String
    /// The value when no conditional value applies; `nil` leaves the parameter to the in-app default.
    public var defaultValue: FirebaseParameterValue?
    /// Values by condition name; the template's condition order decides which applies. Names of
    /// conditions the template does not have are ignored, as Firebase does.
    public var conditionalValues: [String: FirebaseParameterValue]
    /// How the value should be read; evaluation never uses it (values are strings).
    public var valueType: FirebaseValueType
    /// The parameter's description in the console.
    public var description: String?

    /// Creates a parameter.
    public init(
        key: String, defaultValue: FirebaseParameterValue?, conditionalValues: [String: FirebaseParameterValue] = [:],
        valueType: FirebaseValueType = .string, description: String? = nil
    ) {
        self.key = key
        self.defaultValue = defaultValue
        self.conditionalValues = conditionalValues
        self.valueType = valueType
        self.description = description
    }
}

/// A parameter's default or conditional value: `{"value": "…"}` or `{"useInAppDefault": true}`.
public enum FirebaseParameterValue: Sendable, Hashable {
    case value(String)
    /// The app's own default applies (in a `TweakManager`: the providers below).
    case useInAppDefault
}

/// A parameter's declared type (`valueType`), which says how to read its string value as a tweak.
public enum FirebaseValueType: String, Sendable, Hashable, CaseIterable {
    case string = "STRING"
    /// Read with Firebase's truthy rule (``FirebaseValue/asBool``).
    case boolean = "BOOLEAN"
    /// Read with JavaScript's `Number()`: an Int when integral, else a Double.
    case number = "NUMBER"
    /// Parsed as JSON; a value that is not valid JSON stays a string.
    case json = "JSON"
    /// Missing or unknown: read as a string.
    case unspecified = "PARAMETER_VALUE_TYPE_UNSPECIFIED"

    /// The tweak value for a parameter value of this type.
    ///
    /// ```swift
    /// FirebaseValueType.number.tweakValue("0x10")          // .int(16)
    /// FirebaseValueType.boolean.tweakValue("yes")          // .bool(true)
    /// FirebaseValueType.json.tweakValue(#"{"a": [1]}"#)    // .object(["a": [1]])
    /// ```
    public func tweakValue(_ string: String) -> TweakContent {
        switch self {
        case .string, .unspecified:
            return .string(string)
        case .boolean:
            return .bool(FirebaseValue.readsAsTrue(string))
        case .number:
            let number = JSONValue.javaScriptNumber(string)
            if number.isNaN { return .int(0) }
            if number.rounded() == number, abs(number) < 9.2e18 { return .int(Int(number)) }
            return .double(number)
        case .json:
            return (try? TweakContent(jsonText: string)) ?? .string(string)
        }
    }
}
