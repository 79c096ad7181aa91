public import TweakKit

/// How Firebase parameter keys become tweak ids. Keys allow only letters, digits and
/// underscores, so a dot cannot separate feature and variable.
///
/// ```swift
/// FirebaseParameterMapping.doubleUnderscore.tweakID(forParameter: "checkout__new_flow")  // checkout.new_flow
/// FirebaseParameterMapping.doubleUnderscore.tweakID(forParameter: "welcome_text")        // remote_config.welcome_text
/// FirebaseParameterMapping.feature("firebase").tweakID(forParameter: "welcome_text")     // firebase.welcome_text
/// FirebaseParameterMapping { key in key.hasPrefix("ios_") ? TweakID(feature: "ios", variable: String(key.dropFirst(4))) : nil }
/// ```
/// A parameter the mapping gives no id is not served as a tweak.
public struct FirebaseParameterMapping: Sendable {
    private let map: @Sendable (String) -> TweakID?

    /// A custom mapping; return `nil` to leave a parameter out.
    public init(_ tweakID: @escaping @Sendable (_ parameterKey: String) -> TweakID?) {
        self.map = tweakID
    }

    /// The tweak id of the parameter `key`, or `nil` when it is left out.
    public func tweakID(forParameter key: String) -> TweakID? {
        map(key)
    }

    /// The feature of keys without a `feature__variable` split under ``doubleUnderscore``.
    public static let ungroupedFeature = "remote_config"

    /// `feature__variable`: the key splits at its first `__` (`checkout__new_flow` →
    /// `checkout.new_flow`, so `isFeatureEnabled("checkout")` reads `checkout__enabled`). A key
    /// without `__`, or with nothing before or after it, is a variable of the feature `remote_config`.
    public static var doubleUnderscore: FirebaseParameterMapping { doubleUnderscore(ungroupedFeature: ungroupedFeature) }

    /// ``doubleUnderscore`` with another feature for keys that have no `__` split.
    public static func doubleUnderscore(ungroupedFeature: String) -> FirebaseParameterMapping {
        FirebaseParameterMapping { key in
            var index = key.startIndex
            while index < key.endIndex {
                let next = key.index(after: index)
                if next < key.endIndex, key[index] == "_", key[next] == "_" {
                    let variableStart = key.index(after: next)
                    guard index > key.startIndex, variableStart < key.endIndex else { break }
                    return TweakID(feature: String(key[..<index]), variable: String(key[variableStart...]))
                }
                index = next
            }
            return TweakID(feature: ungroupedFeature, variable: key)
        }
    }

    /// Every parameter is a variable of the one feature `name`: `welcome_text` → `name.welcome_text`.
    public static func feature(_ name: String) -> FirebaseParameterMapping {
        FirebaseParameterMapping { key in TweakID(feature: name, variable: key) }
    }
}
