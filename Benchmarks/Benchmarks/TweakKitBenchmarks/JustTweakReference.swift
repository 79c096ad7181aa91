import Dispatch
import Foundation

/// JustTweak 10.1.1's lookup algorithm, written here from its documented behaviour so that the
/// `JustTweak` module can be timed against it in one process (`Paired.JustTweak.*`):
/// - every lookup runs inside `sync` on one serial `DispatchQueue`;
/// - with the cache on, `tweakWith` answers from a `[feature: [variable: Tweak]]` dictionary and
///   `isFeatureEnabled` from a `[feature: Bool]` one; on a miss it asks each provider in turn, makes
///   the answer's tweak anew with the provider's type name as its source, and caches it;
/// - a tweak is a struct of seven fields, its value an existential.
/// The providers are JustTweak's: an `NSMutableDictionary` keyed by variable (the README's
/// ephemeral overrides), `UserDefaults` keyed by a prefixed variable, and the tweaks file.
enum JustTweakReference {
    struct Tweak {
        let feature: String
        let variable: String
        let value: Any
        let title: String?
        let desc: String?
        let group: String?
        let source: String?
    }

    struct NotFound: Error {}

    protocol Provider: AnyObject {
        func isFeatureEnabled(_ feature: String) -> Bool
        func tweakWith(feature: String, variable: String) throws -> Tweak
    }

    final class Manager {
        private let queue = DispatchQueue(label: "reference.tweakManager")
        private var featureCache: [String: Bool] = [:]
        private var tweakCache: [String: [String: Tweak]] = [:]
        let providers: [any Provider]
        var useCache = true
        var logClosure: ((String) -> Void)?

        init(providers: [any Provider]) {
            self.providers = providers
        }

        func isFeatureEnabled(_ feature: String) -> Bool {
            queue.sync {
                if useCache, let cached = featureCache[feature] {
                    logClosure?("Feature '\(cached)' found in cache.")
                    return cached
                }
                var enabled = false
                for provider in providers where provider.isFeatureEnabled(feature) {
                    enabled = true
                    break
                }
                if useCache { featureCache[feature] = enabled }
                return enabled
            }
        }

        func tweakWith(feature: String, variable: String) throws -> Tweak {
            try queue.sync {
                if useCache, let cachedTweaks = tweakCache[feature], let cached = cachedTweaks[variable] {
                    logClosure?("Tweak '\(cached)' found in cache.")
                    return cached
                }
                var result: Tweak?
                for provider in providers {
                    if let tweak = try? provider.tweakWith(feature: feature, variable: variable) {
                        result = Tweak(feature: feature, variable: variable, value: tweak.value, title: tweak.title,
                                       desc: tweak.desc, group: tweak.group, source: "\(type(of: provider))")
                        break
                    }
                }
                guard let result else { throw NotFound() }
                if useCache {
                    if tweakCache[feature] != nil {
                        tweakCache[feature]?[variable] = result
                    } else {
                        tweakCache[feature] = [variable: result]
                    }
                }
                return result
            }
        }
    }

    /// The README's ephemeral overrides: a dictionary keyed by variable.
    final class Ephemeral: Provider {
        let dictionary: NSMutableDictionary
        init(_ dictionary: NSMutableDictionary) { self.dictionary = dictionary }
        func isFeatureEnabled(_ feature: String) -> Bool { dictionary[feature] as? Bool ?? false }
        func tweakWith(feature: String, variable: String) throws -> Tweak {
            guard let stored = dictionary[variable] else { throw NotFound() }
            return Tweak(feature: feature, variable: variable, value: stored, title: nil, desc: nil, group: nil, source: nil)
        }
    }

    /// `UserDefaults` keyed by a prefixed variable.
    final class Defaults: Provider {
        let defaults: UserDefaults
        init(_ defaults: UserDefaults) { self.defaults = defaults }
        func isFeatureEnabled(_ feature: String) -> Bool { defaults.bool(forKey: "lib.fullstack.tweaks.\(feature)") }
        func tweakWith(feature: String, variable: String) throws -> Tweak {
            guard let stored = defaults.object(forKey: "lib.fullstack.tweaks.\(variable)") else { throw NotFound() }
            return Tweak(feature: feature, variable: variable, value: stored, title: nil, desc: nil, group: nil, source: nil)
        }
    }

    /// The tweaks file, parsed into `[feature: [variable: Tweak]]`.
    final class Local: Provider {
        let tweaks: [String: [String: Tweak]]
        init(json: [String: [String: [String: Any]]]) {
            var tweaks: [String: [String: Tweak]] = [:]
            for (feature, variables) in json {
                for (variable, fields) in variables {
                    tweaks[feature, default: [:]][variable] = Tweak(
                        feature: feature, variable: variable, value: fields["Value"] ?? false, title: fields["Title"] as? String,
                        desc: fields["Description"] as? String, group: fields["Group"] as? String, source: nil)
                }
            }
            self.tweaks = tweaks
        }
        func isFeatureEnabled(_ feature: String) -> Bool { tweaks[feature]?["enabled"]?.value as? Bool ?? false }
        func tweakWith(feature: String, variable: String) throws -> Tweak {
            guard let tweak = tweaks[feature]?[variable] else { throw NotFound() }
            return tweak
        }
    }
}
