public import Foundation

/// Tweaks set from outside the process: environment variables and launch arguments, so UI and
/// integration tests can configure the app they start.
///
/// - Environment: `TWEAK_<feature>__<variable>=<value>` (two underscores between feature and
///   variable; the feature is everything before the first `__`).
/// - Arguments: `-tweak <feature>.<variable>=<value>` (also `--tweak`); the feature is
///   everything before the first `.`. An argument wins over an environment variable.
/// - Values are read as JSON when they are JSON (`true`, `42`, `1.5`, `"42"`, `[1,2]`) and as a
///   String otherwise, so `hello` is the String "hello" and `'"42"'` the String "42".
///
/// ```swift
/// // TWEAK_ui_customization__display_red_view=true ./MyApp -tweak ui_customization.label_text=Hi
/// let manager = TweakManager(tweakProviders: [EnvironmentTweakProvider(), defaults])
/// ```
public final class EnvironmentTweakProvider: TweakProvider, Sendable {
    /// The prefix of environment variables read as tweaks.
    public static let environmentPrefix = "TWEAK_"
    /// The launch argument that precedes a `feature.variable=value` assignment.
    public static let argumentName = "-tweak"

    /// The source shown on the provider's tweaks ("environment" unless another was given).
    public let name: String
    private let tweaks: [TweakID: Tweak]
    /// Entries that looked like tweak assignments but could not be read, with the reason.
    public let problems: [String]

    /// Reads tweaks from `environment` and `arguments`, by default the process's own.
    ///
    /// ```swift
    /// let environment = EnvironmentTweakProvider(environment: ["TWEAK_checkout__enabled": "true"], arguments: [])
    /// ```
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = ProcessInfo.processInfo.arguments,
        name: String = "environment"
    ) {
        self.name = name
        var tweaks: [TweakID: Tweak] = [:]
        var problems: [String] = []
        for (key, text) in environment.sorted(by: { $0.key < $1.key }) where key.hasPrefix(Self.environmentPrefix) {
            let rest = key.dropFirst(Self.environmentPrefix.count)
            guard let separator = rest.range(of: "__"),
                  !rest[..<separator.lowerBound].isEmpty, !rest[separator.upperBound...].isEmpty
            else {
                problems.append("environment variable \(key): expected \(Self.environmentPrefix)<feature>__<variable>")
                continue
            }
            let id = TweakID(feature: String(rest[..<separator.lowerBound]), variable: String(rest[separator.upperBound...]))
            tweaks[id] = Tweak(feature: id.feature, variable: id.variable, content: Self.parseValue(text), source: name)
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let assignment: String
            if argument == Self.argumentName || argument == "-" + Self.argumentName {
                guard index < arguments.endIndex else {
                    problems.append("argument \(argument): expected <feature>.<variable>=<value> after it")
                    break
                }
                assignment = arguments[index]
                index += 1
            } else if argument.hasPrefix(Self.argumentName + "=") || argument.hasPrefix("-" + Self.argumentName + "="),
                      let equals = argument.firstIndex(of: "=") {
                assignment = String(argument[argument.index(after: equals)...])
            } else {
                continue
            }
            guard let equals = assignment.firstIndex(of: "="),
                  let id = TweakID(parsing: String(assignment[..<equals]))
            else {
                problems.append("argument \(assignment): expected <feature>.<variable>=<value>")
                continue
            }
            let text = String(assignment[assignment.index(after: equals)...])
            tweaks[id] = Tweak(feature: id.feature, variable: id.variable, content: Self.parseValue(text), source: name)
        }
        self.tweaks = tweaks
        self.problems = problems
    }

    /// Reads a value as JSON when it is JSON, else as a String.
    public static func parseValue(_ text: String) -> TweakContent {
        if let node = try? JSONParser.parse(Array(text.utf8)), let value = node.tweakValue {
            return value
        }
        return .string(text)
    }

    /// Every tweak set in the environment or the arguments.
    public func allTweaks() -> [Tweak] { Array(tweaks.values) }

    /// The tweak set for `feature.variable`; throws ``TweakError/notFound(feature:variable:)`` when none is.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let tweak = tweaks[TweakID(feature: feature, variable: variable)] else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }

    /// The process's environment and arguments are fixed at launch.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        TweakObservation()
    }
}
