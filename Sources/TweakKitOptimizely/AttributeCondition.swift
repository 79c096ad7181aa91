import Foundation
import TweakKit

/// One audience condition on a user attribute: `{"type": "custom_attribute", "name": "age",
/// "match": "ge", "value": 21}`.
///
/// Evaluation follows Optimizely's SDKs: the result is unknown (`nil`) — not false — when the
/// attribute is missing or null, when its type does not fit the match, when a number is not
/// finite or beyond ±2^53, and for unknown condition types or match types. `exists` is never unknown.
struct AttributeCondition: Sendable {
    enum Value: Sendable {
        case string(String)
        case bool(Bool)
        case number(Double)
        /// null, an array or an object: not a valid condition value.
        case invalid(String)
    }

    var name: String
    var type: String
    /// `nil` in legacy audiences: exact.
    var match: String?
    var value: Value

    static let maximumSafeNumber = 9_007_199_254_740_992.0  // 2^53

    func evaluate(_ attributes: [String: TweakContent]) -> Bool? {
        guard type == "custom_attribute" || type == "third_party_dimension" else { return nil }
        let match = match ?? "exact"
        if match == "exists" { return attributes[name] != nil }
        if match == "qualified" {
            // ODP audience segments: TweakKit fetches none, so the user qualifies for no segment.
            guard case .string = value else { return nil }
            return false
        }
        guard let attribute = attributes[name] else { return nil }
        switch match {
        case "exact": return exact(attribute)
        case "substring":
            guard case .string(let condition) = value, case .string(let user) = attribute else { return nil }
            // By Unicode scalar, as the SDKs compare code points (not canonical equivalence).
            return user.unicodeScalars.contains(condition.unicodeScalars)
        case "gt", "ge", "lt", "le":
            guard case .number(let condition) = value, Self.isFinite(condition), let user = Self.number(attribute), Self.isFinite(user) else { return nil }
            switch match {
            case "gt": return user > condition
            case "ge": return user >= condition
            case "lt": return user < condition
            default: return user <= condition
            }
        case "semver_eq", "semver_ge", "semver_gt", "semver_le", "semver_lt":
            guard case .string(let target) = value, case .string(let user) = attribute,
                  let order = OptimizelySemanticVersion.compare(target: target, user: user)
            else { return nil }
            switch match {
            case "semver_eq": return order == 0
            case "semver_ge": return order >= 0
            case "semver_gt": return order > 0
            case "semver_le": return order <= 0
            default: return order < 0
            }
        default:
            return nil
        }
    }

    private func exact(_ attribute: TweakContent) -> Bool? {
        switch (value, attribute) {
        case (.string(let condition), .string(let user)): return condition.unicodeScalars.elementsEqual(user.unicodeScalars)
        case (.bool(let condition), .bool(let user)): return condition == user
        case (.number(let condition), _):
            guard Self.isFinite(condition), let user = Self.number(attribute), Self.isFinite(user) else { return nil }
            return condition == user
        default: return nil
        }
    }

    /// An Int or Double attribute as a number; a Bool is not a number.
    private static func number(_ value: TweakContent) -> Double? {
        switch value {
        case .int(let int): int.magnitude <= 1 << 53 ? Double(int) : .infinity
        case .double(let double): double
        case .float(let float): Double(float)
        default: nil
        }
    }

    private static func isFinite(_ number: Double) -> Bool {
        number.isFinite && abs(number) <= maximumSafeNumber
    }
}
