import TweakKit

/// What `tweak eval` prints for one decision: a JSON object whose members keep their order.
///
/// ```swift
/// let report = EvalReport([("enabled", .bool(true)), ("ruleKey", .null)])
/// report.json(pretty: true).text
/// // {
/// //   "enabled": true,
/// //   "ruleKey": null
/// // }
/// ```
struct EvalReport: Sendable {
    /// The members of the printed object, in order.
    var fields: [(name: String, value: TweakContent)]
    /// What the caller should know but is not part of the decision ("the file has no flag f"):
    /// `tweak eval` prints each as a warning on standard error.
    var warnings: [String]

    /// A report of `fields`, in the order given.
    init(_ fields: [(name: String, value: TweakContent)], warnings: [String] = []) {
        self.fields = fields
        self.warnings = warnings
    }

    /// An evaluation in OpenFeature's shape: `flagKey`, `value`, `variant`, `reason`, `errorCode`,
    /// `errorMessage`, `flagMetadata`, leaving out what the evaluation does not have.
    static func openFeature(key: String, evaluation: TweakEvaluation) -> EvalReport {
        var fields: [(name: String, value: TweakContent)] = [("flagKey", .string(key))]
        if let value = evaluation.value { fields.append(("value", value)) }
        if let variant = evaluation.variant, evaluation.errorCode == nil { fields.append(("variant", .string(variant))) }
        fields.append(("reason", .string(evaluation.reason.rawValue)))
        if let code = evaluation.errorCode { fields.append(("errorCode", .string(code.rawValue))) }
        if let message = evaluation.errorMessage { fields.append(("errorMessage", .string(message))) }
        fields.append(("flagMetadata", .object(evaluation.flagMetadata)))
        return EvalReport(fields)
    }

    /// The report as JSON text, indented by two spaces or on one line. A number JSON cannot hold
    /// (infinite or NaN) is written as `null`, and its place (`variables.ceiling`) is listed in
    /// `nullified`, so the decision is never lost.
    func json(pretty: Bool) -> (text: String, nullified: [String]) {
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
