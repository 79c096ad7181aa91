@_spi(TweakKitEngines) public import TweakKit

/// Who Optimizely decides for: a user id and attributes that audiences read.
///
/// ```swift
/// let user = OptimizelyUser(id: "user-42", attributes: ["plan": "pro", "age": 31])
/// ```
/// The `$opt_bucketing_id` attribute, when it is a string, is hashed instead of the user id, so
/// users who share it (a household, a device) get the same variations; whitelists and forced
/// decisions still use the user id.
public struct OptimizelyUser: Sendable, Hashable {
    /// The user id: bucketed, whitelisted and forced by.
    public var id: String
    /// What audiences read.
    public var attributes: [String: TweakContent]

    /// Creates a user.
    public init(id: String, attributes: [String: TweakContent] = [:]) {
        self.id = id
        self.attributes = attributes
    }

    /// The user of an evaluation context: the targeting key is the user id, the attributes are
    /// the attributes. `nil` without a targeting key.
    public init?(_ context: EvaluationContext) {
        guard let id = context.targetingKey else { return nil }
        self.init(id: id, attributes: context.attributes)
    }

    static let bucketingIDAttribute = "$opt_bucketing_id"

    /// The id that is hashed for bucketing, with a reason when `$opt_bucketing_id` had to be ignored.
    func bucketingID(reasons: inout DecisionReasons) -> String {
        switch FewKeys.value(in: attributes, forKey: Self.bucketingIDAttribute) {
        case .string(let bucketingID)?: return bucketingID
        case nil: return id
        default:
            reasons.append(.bucketingIDNotString)
            return id
        }
    }
}
