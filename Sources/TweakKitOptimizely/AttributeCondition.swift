import Foundation
@_spi(TweakKitEngines) import TweakKit
import TweakKitEngineSupport

/// One audience condition on a user attribute: `{"type": "custom_attribute", "name": "age",
/// "match": "ge", "value": 21}`.
///
/// Evaluation follows Optimizely's SDKs: the result is unknown (`nil`) — not false — when the
/// attribute is missing or null, when its type does not fit the match, when a number is not
/// finite or beyond ±2^53, and for unknown condition types or match types. `exists` is never unknown.
///
/// The condition's `value` is the JSON value as the datafile wrote it (`.null` when missing): a
/// string, a Boolean or a number is valid; null, an array or an object is not.
struct AttributeCondition: Sendable {

    /// What the condition does, read once from its `type` and `match`.
    enum Operation: Sendable {
        /// An unknown condition type or match type: always unknown.
        case unknown
        case exists, qualified, exact, substring
        case greaterThan, greaterOrEqual, lessThan, lessOrEqual
        case semanticVersion(SemanticVersionOperator)
    }

    enum SemanticVersionOperator: Sendable {
        case equal, greaterOrEqual, greater, lessOrEqual, less
    }

    var name: String
    var value: JSONValue
    let operation: Operation

    /// `match` is `nil` in legacy audiences: exact.
    init(name: String, type: String, match: String?, value: JSONValue) {
        self.name = name
        self.value = value
        guard type == "custom_attribute" || type == "third_party_dimension" else {
            operation = .unknown
            return
        }
        operation = switch match ?? "exact" {
        case "exists": .exists
        case "qualified": .qualified
        case "exact": .exact
        case "substring": .substring
        case "gt": .greaterThan
        case "ge": .greaterOrEqual
        case "lt": .lessThan
        case "le": .lessOrEqual
        case "semver_eq": .semanticVersion(.equal)
        case "semver_ge": .semanticVersion(.greaterOrEqual)
        case "semver_gt": .semanticVersion(.greater)
        case "semver_le": .semanticVersion(.lessOrEqual)
        case "semver_lt": .semanticVersion(.less)
        default: .unknown
        }
    }

    static let maximumSafeNumber = 9_007_199_254_740_992.0  // 2^53

    func evaluate(_ attributes: [String: TweakContent]) -> Bool? {
        switch operation {
        case .unknown: return nil
        case .exists: return FewKeys.value(in: attributes, forKey: name) != nil
        case .qualified:
            // ODP audience segments: TweakKit fetches none, so the user qualifies for no segment.
            guard case .string = value else { return nil }
            return false
        default: break
        }
        guard let attribute = FewKeys.value(in: attributes, forKey: name) else { return nil }
        switch operation {
        case .exact: return exact(attribute)
        case .substring:
            guard case .string(let condition) = value, case .string(let user) = attribute else { return nil }
            // By Unicode scalar, as the SDKs compare code points (not canonical equivalence).
            return user.unicodeScalars.contains(condition.unicodeScalars)
        case .greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual:
            guard let condition = Self.number(value), Self.isFinite(condition), let user = Self.number(attribute), Self.isFinite(user) else { return nil }
            switch operation {
            case .greaterThan: return user > condition
            case .greaterOrEqual: return user >= condition
            case .lessThan: return user < condition
            default: return user <= condition
            }
        case .semanticVersion(let comparison):
            guard case .string(let target) = value, case .string(let user) = attribute,
                  let order = OptimizelySemanticVersion.compare(target: target, user: user)
            else { return nil }
            switch comparison {
            case .equal: return order == 0
            case .greaterOrEqual: return order >= 0
            case .greater: return order > 0
            case .lessOrEqual: return order <= 0
            case .less: return order < 0
            }
        case .unknown, .exists, .qualified:
            return nil
        }
    }

    private func exact(_ attribute: TweakContent) -> Bool? {
        switch (value, attribute) {
        // Code point by code point, as the SDKs compare (not canonical equivalence): the same
        // code points are the same UTF-8 bytes.
        case (.string(let condition), .string(let user)): return condition.utf8.elementsEqual(user.utf8)
        case (.bool(let condition), .bool(let user)): return condition == user
        case (.int, _), (.double, _):
            guard let condition = Self.number(value), Self.isFinite(condition), let user = Self.number(attribute), Self.isFinite(user) else { return nil }
            return condition == user
        default: return nil
        }
    }

    /// A number condition value: an integer beyond ±2^53 is infinite (so never finite enough to compare).
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let int): int.magnitude <= 1 << 53 ? Double(int) : .infinity
        case .double(let double): double
        default: nil
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
