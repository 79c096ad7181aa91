/// What `tweak eval` asks a ``TweakDocumentFormat`` to evaluate: the context JSON object as the
/// user wrote it (each vendor names its fields its own way) and the format's own options.
///
/// ```swift
/// let request = TweakEvaluationRequest(context: ["targetingKey": "user-1", "plan": "pro"])
/// let json = try format.evaluationReport(for: "checkout.theme", in: document, request: request)
/// ```
public struct TweakEvaluationRequest: Sendable {
    /// The `--context` object; empty when none was given.
    public var context: [String: TweakContent]
    /// The options the format declared in ``TweakDocumentFormat/evaluationOptions`` that were given.
    public var options: [String: String]

    public init(context: [String: TweakContent] = [:], options: [String: String] = [:]) {
        self.context = context
        self.options = options
    }

    /// The context as TweakKit's: a String `targetingKey` is the targeting key, the rest attributes.
    public func evaluationContext() throws(Failure) -> EvaluationContext {
        var attributes = context
        var targetingKey: String?
        if let key = attributes.removeValue(forKey: "targetingKey") {
            guard case .string(let text) = key else { throw Failure("targetingKey in the context must be a string") }
            targetingKey = text
        }
        return EvaluationContext(targetingKey: targetingKey, attributes: attributes)
    }

    /// A request the format cannot evaluate (a missing user id, a bad option), said in one sentence.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }
}

/// Writes `tweak eval` reports: JSON objects whose members keep their order, `nil` written as `null`.
public enum TweakEvaluationReport {
    /// An object with `fields` in order, indented by two spaces; a `nil` value is `null`.
    ///
    /// ```swift
    /// try TweakEvaluationReport.object([("enabled", .bool(true)), ("ruleKey", nil)])
    /// // {
    /// //   "enabled": true,
    /// //   "ruleKey": null
    /// // }
    /// ```
    /// - Throws: ``TweakEvaluationRequest/Failure`` naming the field when a number is infinite or NaN.
    public static func object(_ fields: [(String, TweakContent?)]) throws(TweakEvaluationRequest.Failure) -> String {
        var output = "{"
        for (offset, (key, value)) in fields.enumerated() {
            output += offset == 0 ? "\n  " : ",\n  "
            JSONWriter.writeString(key, into: &output)
            output += ": "
            guard let value else {
                output += "null"
                continue
            }
            do {
                try JSONWriter.write(value, into: &output, indent: 2, level: 1)
            } catch {
                throw TweakEvaluationRequest.Failure("\(key): \(error)")
            }
        }
        return output + (fields.isEmpty ? "}" : "\n}")
    }

    /// An evaluation in OpenFeature's shape: `flagKey`, `value`, `variant`, `reason`, `errorCode`,
    /// `errorMessage`, `flagMetadata`, leaving out what the evaluation does not have.
    public static func openFeature(key: String, evaluation: TweakEvaluation) throws(TweakEvaluationRequest.Failure) -> String {
        var fields: [(String, TweakContent?)] = [("flagKey", .string(key))]
        if let value = evaluation.value { fields.append(("value", value)) }
        if let variant = evaluation.variant, evaluation.errorCode == nil { fields.append(("variant", .string(variant))) }
        fields.append(("reason", .string(evaluation.reason.rawValue)))
        if let code = evaluation.errorCode { fields.append(("errorCode", .string(code.rawValue))) }
        if let message = evaluation.errorMessage { fields.append(("errorMessage", .string(message))) }
        fields.append(("flagMetadata", .object(evaluation.flagMetadata)))
        return try object(fields)
    }
}
