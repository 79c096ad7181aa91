public import Foundation
@_spi(TweakKitEngines) import TweakKit
public import TweakKitEngineSupport

/// LaunchDarkly feature flags decided locally, as LaunchDarkly's server-side SDKs decide them:
/// the flag data (`{"flags": {…}, "segments": {…}}`, the body of `/sdk/latest-all`) compiled once,
/// then answered for any context with no I/O.
///
/// ```swift
/// let flags = try LaunchDarklyFlags(data: body)
/// let context = LaunchDarklyContext(kind: "user", key: "user-1", attributes: ["plan": "pro"])
/// let detail = flags.evaluate("new-checkout", context: context, default: false)
/// detail.value            // .bool(true)
/// detail.reason.json      // {"kind":"RULE_MATCH","ruleIndex":0,"ruleId":"pro-users"}
/// ```
///
/// Prerequisites and segments that refer to segments are followed with their own cycle check
/// (a cycle is the `MALFORMED_FLAG` error, as in the SDKs) and at most ``maximumDepth`` levels.
/// `matches` patterns run on TweakKit's bounded regular expressions: a search over its budget does not
/// match. Unbounded (big) segments have no store here: their included and excluded lists are
/// unknown, the reason says `bigSegmentsStatus: NOT_CONFIGURED`, and only their rules are tried.
public struct LaunchDarklyFlags: Sendable {
    final class Storage: Sendable {
        let flags: [CompiledFlag]
        let flagIndex: [String: Int]
        let segments: [CompiledSegment]
        let segmentIndex: [String: Int]

        init(flags: [CompiledFlag], flagIndex: [String: Int], segments: [CompiledSegment], segmentIndex: [String: Int]) {
            (self.flags, self.flagIndex, self.segments, self.segmentIndex) = (flags, flagIndex, segments, segmentIndex)
        }

        /// The flag `key`'s index: among a few flags by comparing keys (no hashing per decision), as
        /// the subscript would find it.
        func index(of key: String) -> Int? { FewKeys.value(in: flagIndex, forKey: key) }
    }

    let storage: Storage

    /// How many prerequisite and segment levels one evaluation follows before it gives up with
    /// `MALFORMED_FLAG`: far beyond any real flag, and a bound on the evaluator's stack.
    public static let maximumDepth = 100

    /// Reads flag data; throws a ``LaunchDarklyDataError`` naming the path of the first problem.
    public init(json: JSONValue) throws(LaunchDarklyDataError) {
        let loaded = try FlagDataLoader.load(json)
        storage = Storage(flags: loaded.flags, flagIndex: loaded.flagIndex, segments: loaded.segments, segmentIndex: loaded.segmentIndex)
    }

    /// Reads flag data from JSON text.
    public init(jsonText: String) throws(LaunchDarklyDataError) {
        let json: JSONValue
        do {
            json = try JSONValue(jsonText: jsonText)
        } catch {
            throw LaunchDarklyDataError(path: "", message: "not JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// Reads flag data from JSON bytes.
    public init(data: Data) throws(LaunchDarklyDataError) {
        try self.init(jsonText: String(decoding: data, as: UTF8.self))
    }

    /// The flag keys, in the data's order.
    public var flagKeys: [String] { storage.flags.map(\.key) }

    /// Whether the data defines the flag `key`.
    public func contains(_ key: String) -> Bool { storage.index(of: key) != nil }

    /// The flag's decision for `context`, as `variationDetail` in the SDKs: `default` is the value
    /// when no variation is served. `events`, when given, receives what the SDKs would send as
    /// evaluation events (each prerequisite, then the flag).
    public func evaluate(
        _ flagKey: String, context: LaunchDarklyContext, default defaultValue: JSONValue = .null,
        events: ((LaunchDarklyEvaluationEvent) -> Void)? = nil
    ) -> LaunchDarklyDetail {
        guard context.isValid else { return LaunchDarklyDetail(value: defaultValue, variationIndex: nil, reason: .error(.userNotSpecified)) }
        guard let index = storage.index(of: flagKey) else {
            return LaunchDarklyDetail(value: defaultValue, variationIndex: nil, reason: .error(.flagNotFound))
        }
        var scope = EvaluationScope(storage: storage, context: context, events: events)
        let flag = storage.flags[index]
        var result: FlagResult
        do {
            result = try scope.evaluate(flag: index, depth: 0)
            if scope.bigSegmentsConsulted { result.reason.bigSegmentsStatus = "NOT_CONFIGURED" }
        } catch {
            result = FlagResult(variation: nil, reason: .error(.malformedFlag))
        }
        let detail: LaunchDarklyDetail
        if let variation = result.variation {
            detail = LaunchDarklyDetail(value: flag.variations[variation], variationIndex: variation, reason: result.reason)
        } else {
            detail = LaunchDarklyDetail(value: defaultValue, variationIndex: nil, reason: result.reason)
        }
        if let events { events(EvaluationScope.event(for: flag, detail: detail, prerequisiteOf: nil)) }
        return detail
    }

    /// The type a typed variation call asks for.
    public enum ValueType: String, Sendable, Hashable {
        case bool, int, double, string, any
    }

    /// ``evaluate(_:context:default:events:)`` for a typed call (`boolVariationDetail`, …): a
    /// served value of another type gives the default with the `WRONG_TYPE` error.
    ///
    /// ```swift
    /// flags.evaluate("new-checkout", context: context, default: false, as: .bool).reason.errorKind   // nil, or .wrongType
    /// ```
    public func evaluate(_ flagKey: String, context: LaunchDarklyContext, default defaultValue: JSONValue, as type: ValueType) -> LaunchDarklyDetail {
        let detail = evaluate(flagKey, context: context, default: defaultValue)
        guard detail.variationIndex != nil else { return detail }
        let matches: Bool
        switch (type, detail.value) {
        case (.any, _), (.bool, .bool), (.string, .string), (.int, .int), (.int, .double), (.double, .int), (.double, .double): matches = true
        default: matches = false
        }
        return matches ? detail : LaunchDarklyDetail(value: defaultValue, variationIndex: nil, reason: .error(.wrongType))
    }
}
