/// What `tweak eval` used to ask a document format to evaluate: the context JSON object as the
/// user wrote it (each vendor names its fields its own way) and the format's own options.
///
/// Deprecated: ``TweakDocumentFormat`` no longer carries `tweak eval`'s options or reports; the
/// tool declares each format's options and prints its decisions itself. The engines' own
/// `evaluationReport(for:in:request:)` methods still take it, deprecated, until they go.
///
/// ```swift
/// let request = TweakEvaluationRequest(context: ["targetingKey": "user-1", "plan": "pro"])
/// let json = try FlagdFormat().evaluationReport(for: "checkout-theme", in: document, request: request)
/// ```
@available(*, deprecated, message: "`tweak eval` evaluates and prints decisions itself; TweakDocumentFormat no longer asks for this")
public struct TweakEvaluationRequest: Sendable {
    /// The `--context` object; empty when none was given.
    public var context: [String: TweakContent]
    /// The context's JSON text as written, when it came from text: a format whose SDK compares
    /// objects by their members' order (GrowthBook) reads it again, since ``context`` has no order.
    public var contextText: String?
    /// The options the format declared in its `evaluationOptions` that were
    /// given, each with every value given for it (repeatable options have several).
    public var options: [String: [String]]

    /// Creates a request from the `--context` object and the format's options.
    public init(context: [String: TweakContent] = [:], options: [String: [String]] = [:], contextText: String? = nil) {
        self.context = context
        self.options = options
        self.contextText = contextText
    }

    /// The last value given for an option.
    public func option(_ name: String) -> String? {
        options[name]?.last
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
        /// The sentence `tweak eval` prints.
        public var description: String

        /// Creates a failure that says `description`.
        public init(_ description: String) {
            self.description = description
        }
    }
}

/// What `tweak eval` printed for one decision: a JSON object whose members keep their order.
///
/// Deprecated with ``TweakEvaluationRequest``: the tool has its own.
///
/// ```swift
/// let report = TweakEvaluationReport([("enabled", .bool(true)), ("ruleKey", .null)])
/// report.json(pretty: true).text
/// // {
/// //   "enabled": true,
/// //   "ruleKey": null
/// // }
/// ```
@available(*, deprecated, message: "`tweak eval` evaluates and prints decisions itself; TweakDocumentFormat no longer asks for this")
public struct TweakEvaluationReport: Sendable {
    /// The members of the printed object, in order.
    public var fields: [(name: String, value: TweakContent)]
    /// What the caller should know but is not part of the decision ("the file has no flag f"):
    /// `tweak eval` prints each as a warning on standard error.
    public var warnings: [String]

    /// Creates a report of `fields`, in the order given.
    public init(_ fields: [(name: String, value: TweakContent)], warnings: [String] = []) {
        self.fields = fields
        self.warnings = warnings
    }

    /// An evaluation in OpenFeature's shape: `flagKey`, `value`, `variant`, `reason`, `errorCode`,
    /// `errorMessage`, `flagMetadata`, leaving out what the evaluation does not have.
    public static func openFeature(key: String, evaluation: TweakEvaluation) -> TweakEvaluationReport {
        var fields: [(name: String, value: TweakContent)] = [("flagKey", .string(key))]
        if let value = evaluation.value { fields.append(("value", value)) }
        if let variant = evaluation.variant, evaluation.errorCode == nil { fields.append(("variant", .string(variant))) }
        fields.append(("reason", .string(evaluation.reason.rawValue)))
        if let code = evaluation.errorCode { fields.append(("errorCode", .string(code.rawValue))) }
        if let message = evaluation.errorMessage { fields.append(("errorMessage", .string(message))) }
        fields.append(("flagMetadata", .object(evaluation.flagMetadata)))
        return TweakEvaluationReport(fields)
    }

    /// The report as JSON text, indented by two spaces or on one line. A number JSON cannot hold
    /// (infinite or NaN) is written as `null`, and its place (`variables.ceiling`) is listed in
    /// `nullified`, so the decision is never lost.
    public func json(pretty: Bool) -> (text: String, nullified: [String]) {
        var nullified: [String] = []
        var output = "{"
        for (offset, field) in fields.enumerated() {
            output += offset == 0 ? "" : ","
            if pretty { output += "\n  " }
            JSONWriter.writeString(field.name, into: &output)
            output += pretty ? ": " : ":"
            let value = Self.finite(field.value, at: field.name, nullified: &nullified)
            // Only finite numbers are left, so writing cannot fail.
            try? JSONWriter.write(value, into: &output, indent: pretty ? 2 : 0, level: 1)
        }
        output += pretty && !fields.isEmpty ? "\n}" : "}"
        return (output, nullified)
    }

    private static func finite(_ value: TweakContent, at path: String, nullified: inout [String]) -> TweakContent {
        switch value {
        case .double(let number) where !number.isFinite:
            nullified.append(path)
            return .null
        case .float(let number) where !number.isFinite:
            nullified.append(path)
            return .null
        case .array(let elements):
            return .array(elements.enumerated().map { finite($0.element, at: "\(path)[\($0.offset)]", nullified: &nullified) })
        case .object(let members):
            var finiteMembers: [String: TweakContent] = [:]
            for key in members.keys.sorted() {
                if let member = members[key] { finiteMembers[key] = finite(member, at: "\(path).\(key)", nullified: &nullified) }
            }
            return .object(finiteMembers)
        default:
            return value
        }
    }
}
