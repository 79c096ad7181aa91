public import TweakKit

/// A ``FirebaseTemplate`` as a ``TweakDocument``: each parameter is a tweak (named by a
/// ``FirebaseParameterMapping``), evaluated per lookup with the manager's ``EvaluationContext``.
///
/// ```swift
/// let firebase = try DocumentTweakProvider(contentsOf: templateURL, format: .firebase())
/// let manager = TweakManager(tweakProviders: [firebase, inAppDefaults])
/// manager.isFeatureEnabled("checkout")    // checkout__enabled for the manager's context
/// ```
///
/// A conditional value reports ``EvaluationReason/targetingMatch`` with the condition's name as
/// the variant; the template default ``EvaluationReason/default`` (``EvaluationReason/static``
/// when no condition applies to the parameter). `flagMetadata` holds `source` (`"remote"`) and
/// `parameterKey`. Where the template says `useInAppDefault` or has no value, the document has
/// no answer and the providers below (the in-app defaults) answer. Values are typed by the
/// parameter's `valueType` (see ``FirebaseValueType/tweakValue(_:)``).
public struct FirebaseTemplateDocument: TweakDocument {
    public let template: FirebaseTemplate
    public let mapping: FirebaseParameterMapping
    /// Parameter offsets by tweak id, and the ids in template order.
    private let index: [TweakID: Int]
    private let ids: [TweakID]

    /// Maps the template's parameters; two parameters with the same tweak id are refused.
    public init(template: FirebaseTemplate, mapping: FirebaseParameterMapping = .doubleUnderscore, source: String = "Firebase template") throws(TweakFileError) {
        var index: [TweakID: Int] = [:]
        var ids: [TweakID] = []
        for (offset, parameter) in template.parameters.enumerated() {
            guard let id = mapping.tweakID(forParameter: parameter.key) else { continue }
            if let other = index[id] {
                throw TweakFileError(
                    file: source, location: template.keyLocations[parameter.key], feature: id.feature, variable: id.variable,
                    message: "parameters \"\(template.parameters[other].key)\" and \"\(parameter.key)\" both map to this tweak; rename one or use another FirebaseParameterMapping"
                )
            }
            index[id] = offset
            ids.append(id)
        }
        self.template = template
        self.mapping = mapping
        self.index = index
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
        guard let offset = index[id] else { return nil }
        let parameter = template.parameters[offset]
        guard !parameter.conditionalValues.values.contains(.useInAppDefault) else { return nil }
        return defaultTweak(id, source: source)
    }

    public var evaluatedTweakIDs: [TweakID] { ids }

    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard let offset = index[id] else { return nil }
        let parameter = template.parameters[offset]
        let metadata: [String: TweakValue] = ["source": .string(FirebaseValueSource.remote.rawValue), "parameterKey": .string(parameter.key)]
        switch template.resolve(parameter, context: context) {
        case .conditional(let condition, let string):
            return TweakEvaluation(value: parameter.valueType.tweakValue(string), variant: condition, reason: .targetingMatch, flagMetadata: metadata)
        case .templateDefault(let string):
            let reason: EvaluationReason = template.hasApplicableConditionalValues(parameter) ? .default : .static
            return TweakEvaluation(value: parameter.valueType.tweakValue(string), reason: reason, flagMetadata: metadata)
        case .inAppDefault:
            return nil
        }
    }

    private func defaultTweak(_ id: TweakID, source: String) -> Tweak? {
        guard let offset = index[id], case .value(let string)? = template.parameters[offset].defaultValue else { return nil }
        let parameter = template.parameters[offset]
        return Tweak(feature: id.feature, variable: id.variable, value: parameter.valueType.tweakValue(string), description: parameter.description, source: source)
    }
}
