public import TweakKit

/// A ``FirebaseTemplate`` as a `TweakDocument`: each parameter is a tweak (named by a
/// ``FirebaseParameterMapping``), evaluated per lookup with the manager's `EvaluationContext`.
///
/// ```swift
/// let firebase = try DocumentTweakProvider(contentsOf: templateURL, format: .firebase())
/// let manager = TweakManager(tweakProviders: [firebase, inAppDefaults])
/// manager.isFeatureEnabled("checkout")    // checkout__enabled for the manager's context
/// ```
///
/// A conditional value reports `EvaluationReason.targetingMatch` with the condition's name as
/// the variant; the template default `EvaluationReason.default` (`EvaluationReason.static`
/// when no condition applies to the parameter). `flagMetadata` holds `source` (`"remote"`) and
/// `parameterKey`. Where the template says `useInAppDefault` or has no value, the document has
/// no answer and the providers below (the in-app defaults) answer. Values are typed by the
/// parameter's `valueType` (see ``FirebaseValueType/tweakValue(_:)``).
public struct FirebaseTemplateDocument: TweakDocument {
    /// The template served.
    public let template: FirebaseTemplate
    /// How parameter keys become tweak addresses.
    public let mapping: FirebaseParameterMapping
    /// What a lookup needs of one parameter, typed once at load so an evaluation converts nothing.
    private struct Entry: Sendable {
        var offset: Int
        var typedDefault: TweakContent?
        /// Typed conditional values by condition name.
        var typedConditional: [String: TweakContent]
        /// No template condition names one of its conditional values: its default is STATIC.
        var isStatic: Bool
        /// Some conditional value is `useInAppDefault`, so it has no fixed value.
        var defersToApp: Bool
        var metadata: [String: TweakContent]
    }

    private let entries: [TweakID: Entry]
    /// The ids in template order.
    private let ids: [TweakID]

    /// Maps the template's parameters; two parameters with the same tweak id are refused.
    public init(template: FirebaseTemplate, mapping: FirebaseParameterMapping = .doubleUnderscore, source: String = "Firebase template") throws(TweakFileError) {
        var entries: [TweakID: Entry] = [:]
        var ids: [TweakID] = []
        for (offset, parameter) in template.parameters.enumerated() {
            guard let id = mapping.tweakID(forParameter: parameter.key) else { continue }
            if let other = entries[id] {
                throw TweakFileError(
                    file: source, location: template.keyLocations[parameter.key], feature: id.feature, variable: id.variable,
                    message: "parameters \"\(template.parameters[other.offset].key)\" and \"\(parameter.key)\" both map to this tweak; rename one or use another FirebaseParameterMapping"
                )
            }
            var typedDefault: TweakContent?
            if case .value(let string)? = parameter.defaultValue { typedDefault = parameter.valueType.tweakValue(string) }
            var typedConditional: [String: TweakContent] = [:]
            for (condition, value) in parameter.conditionalValues {
                if case .value(let string) = value { typedConditional[condition] = parameter.valueType.tweakValue(string) }
            }
            entries[id] = Entry(
                offset: offset, typedDefault: typedDefault, typedConditional: typedConditional,
                isStatic: template.choices[offset].isEmpty,
                defersToApp: parameter.conditionalValues.values.contains(.useInAppDefault),
                metadata: ["source": .string(FirebaseValueSource.remote.rawValue), "parameterKey": .string(parameter.key)]
            )
            ids.append(id)
        }
        self.template = template
        self.mapping = mapping
        self.entries = entries
        self.ids = ids
    }

    /// The parameters that have a template default value, with it.
    public func tweaks(source: String) -> [Tweak] {
        ids.compactMap { id in defaultTweak(id, source: source) }
    }

    /// The template default, only for parameters that always have a template value (no
    /// `useInAppDefault` anywhere): where an evaluation can leave the parameter to the in-app
    /// default, the lower providers must answer instead.
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        guard let entry = entries[id], !entry.defersToApp else { return nil }
        return defaultTweak(id, source: source)
    }

    /// Every mapped parameter: each is evaluated per lookup.
    public var evaluatedTweakIDs: [TweakID] { ids }

    /// The parameter's value for `context` (its targeting key is the randomization id, its attributes the
    /// custom signals); `nil` when the in-app default applies.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard let entry = entries[id] else { return nil }
        switch template.resolve(parameterAt: entry.offset, context: context) {
        case .conditional(let condition, _):
            return TweakEvaluation(value: entry.typedConditional[condition], variant: condition, reason: .targetingMatch, flagMetadata: entry.metadata)
        case .templateDefault:
            return TweakEvaluation(value: entry.typedDefault, reason: entry.isStatic ? .static : .default, flagMetadata: entry.metadata)
        case .inAppDefault:
            return nil
        }
    }

    private func defaultTweak(_ id: TweakID, source: String) -> Tweak? {
        guard let entry = entries[id], let value = entry.typedDefault else { return nil }
        return Tweak(feature: id.feature, variable: id.variable, content: value, description: template.parameters[entry.offset].description, source: source)
    }
}
