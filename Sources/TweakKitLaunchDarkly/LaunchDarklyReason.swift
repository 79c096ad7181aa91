public import TweakKitEngineSupport

/// Why a flag gave its value, as LaunchDarkly's SDKs report it in an evaluation detail.
///
/// ```swift
/// let detail = flags.evaluate("new-checkout", context: context)
/// detail.reason.kind         // .ruleMatch
/// detail.reason.ruleIndex    // 0
/// detail.reason.json         // {"kind":"RULE_MATCH","ruleIndex":0,"ruleId":"beta-users"}
/// ```
public struct LaunchDarklyReason: Sendable, Hashable {
    /// The reason's kind.
    public enum Kind: String, Sendable, Hashable {
        case off = "OFF", `fallthrough` = "FALLTHROUGH", targetMatch = "TARGET_MATCH", ruleMatch = "RULE_MATCH"
        case prerequisiteFailed = "PREREQUISITE_FAILED", error = "ERROR"
    }

    /// What went wrong, for ``Kind/error``.
    public enum ErrorKind: String, Sendable, Hashable {
        case flagNotFound = "FLAG_NOT_FOUND", malformedFlag = "MALFORMED_FLAG", userNotSpecified = "USER_NOT_SPECIFIED"
        case wrongType = "WRONG_TYPE", clientNotReady = "CLIENT_NOT_READY", exception = "EXCEPTION"
    }

    /// The kind.
    public var kind: Kind
    /// The matching rule's index, for ``Kind/ruleMatch``.
    public var ruleIndex: Int?
    /// The matching rule's id, for ``Kind/ruleMatch`` (when the rule has one).
    public var ruleID: String?
    /// The prerequisite that failed, for ``Kind/prerequisiteFailed``.
    public var prerequisiteKey: String?
    /// The error, for ``Kind/error``.
    public var errorKind: ErrorKind?
    /// Whether the context is in an experiment (a tracked variation of an experiment rollout).
    public var inExperiment: Bool
    /// `NOT_CONFIGURED` when an unbounded (big) segment was consulted: TweakKit keeps no big
    /// segment store, so their lists are unknown.
    public var bigSegmentsStatus: String?

    /// A reason of `kind` with no details.
    public init(kind: Kind) {
        self.kind = kind
        self.inExperiment = false
    }

    static let off = LaunchDarklyReason(kind: .off)
    static let fallthroughReason = LaunchDarklyReason(kind: .`fallthrough`)
    static let targetMatch = LaunchDarklyReason(kind: .targetMatch)

    /// An error reason.
    public static func error(_ kind: ErrorKind) -> LaunchDarklyReason {
        var reason = LaunchDarklyReason(kind: .error)
        reason.errorKind = kind
        return reason
    }

    static func ruleMatch(_ index: Int, id: String?) -> LaunchDarklyReason {
        var reason = LaunchDarklyReason(kind: .ruleMatch)
        reason.ruleIndex = index
        reason.ruleID = id
        return reason
    }

    static func prerequisiteFailed(_ key: String) -> LaunchDarklyReason {
        var reason = LaunchDarklyReason(kind: .prerequisiteFailed)
        reason.prerequisiteKey = key
        return reason
    }

    /// The reason as the SDKs write it: `kind`, then `ruleIndex`, `ruleId`, `prerequisiteKey`,
    /// `errorKind`, `inExperiment` (only when true) and `bigSegmentsStatus` where they apply.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init(key: "kind", value: .string(kind.rawValue))]
        if let ruleIndex { members.append(.init(key: "ruleIndex", value: .int(ruleIndex))) }
        if let ruleID { members.append(.init(key: "ruleId", value: .string(ruleID))) }
        if let prerequisiteKey { members.append(.init(key: "prerequisiteKey", value: .string(prerequisiteKey))) }
        if let errorKind { members.append(.init(key: "errorKind", value: .string(errorKind.rawValue))) }
        if inExperiment { members.append(.init(key: "inExperiment", value: .bool(true))) }
        if let bigSegmentsStatus { members.append(.init(key: "bigSegmentsStatus", value: .string(bigSegmentsStatus))) }
        return .object(members)
    }
}
