public import Configuration
import Foundation
import Synchronization
public import TweakKit

/// Tweaks read from swift-configuration: environment variables, JSON or YAML files, reloading
/// files, in-memory values — any `ConfigProvider`, or a whole `ConfigReader` — in the tweak stack.
///
/// swift-configuration neither lists keys nor stores types, so the provider is told which tweaks
/// to read and as what: a dictionary of kinds, or the tweaks of another provider (the bundled
/// defaults, typically), whose kinds it takes.
///
/// ```swift
/// let defaults = try LocalTweakProvider(fileURL: defaultsURL)
/// let environment = ConfigTweakProvider(provider: EnvironmentVariablesProvider(), declaring: try defaults.allTweaks())
/// let manager = TweakManager(tweakProviders: [overrides, environment, defaults])
/// // UI_CUSTOMIZATION_DISPLAY_RED_VIEW=true now turns the red view on.
/// let watching = Task { await environment.run() }   // follows reloading providers' changes
/// ```
///
/// The tweak `feature.variable` is the key `["feature", "variable"]` (`FEATURE_VARIABLE` in the
/// environment, `{"feature": {"variable": …}}` in JSON). A Bool tweak reads `bool`, Int `int`,
/// Float and Double `double`, String `string`, an array the first of `stringArray`, `intArray`,
/// `doubleArray`, `boolArray` that reads; objects cannot be read. A value that does not convert
/// is skipped, and the providers below answer.
public final class ConfigTweakProvider: TweakProvider, Sendable {
    enum Source: Sendable {
        case providers([any ConfigProvider])
        case reader(ConfigReader)
    }

    /// The source name tweaks report.
    public let name: String
    /// The tweaks read, and as what.
    public let kinds: [TweakID: TweakContent.Kind]
    let source: Source
    private let notifier = TweakChangeNotifier()

    /// Reads `kinds` from `providers`, the first with a value winning (as a `ConfigReader` does).
    public init(providers: [any ConfigProvider], kinds: [TweakID: TweakContent.Kind], name: String? = nil) {
        self.source = .providers(providers)
        self.kinds = kinds
        self.name = name ?? providers.map(\.providerName).joined(separator: "+")
    }

    /// Reads `kinds` from one provider.
    public convenience init(provider: some ConfigProvider, kinds: [TweakID: TweakContent.Kind], name: String? = nil) {
        self.init(providers: [provider], kinds: kinds, name: name)
    }

    /// Reads the tweaks `declared` lists (their ids and kinds) from one provider.
    public convenience init(provider: some ConfigProvider, declaring declared: [Tweak], name: String? = nil) {
        self.init(providers: [provider], kinds: Self.kinds(of: declared), name: name)
    }

    /// Reads `kinds` through a `ConfigReader`, with its providers, access reporting and key prefix.
    public init(reader: ConfigReader, kinds: [TweakID: TweakContent.Kind], name: String = "ConfigReader") {
        self.source = .reader(reader)
        self.kinds = kinds
        self.name = name
    }

    /// Each tweak's id and kind.
    public static func kinds(of tweaks: [Tweak]) -> [TweakID: TweakContent.Kind] {
        tweaks.reduce(into: [:]) { kinds, tweak in kinds[tweak.id] = TweakContentReader.content(of: tweak).kind }
    }

    // MARK: - TweakProvider

    /// Every declared tweak the configuration has a value for.
    public func allTweaks() -> [Tweak] {
        kinds.keys.sorted().compactMap { read($0) }
    }

    /// The declared tweak's value, read now; `TweakError.notFound(feature:variable:)` when absent or unconvertible.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        let id = TweakID(feature: feature, variable: variable)
        guard let tweak = read(id) else { throw TweakError.notFound(feature: feature, variable: variable) }
        return tweak
    }

    /// Called after each configuration change ``run()`` sees.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }

    /// Follows the configuration's changes (a reloading file, a mutable in-memory provider) until
    /// the calling task is cancelled, telling the manager after each one.
    public func run() async {
        switch source {
        case .providers(let providers):
            await withTaskGroup(of: Void.self) { group in
                for provider in providers {
                    group.addTask { [self] in
                        try? await provider.watchSnapshot { updates in
                            var first = true
                            for await _ in updates {
                                if !first { notifier.post(.reloaded, from: self) }
                                first = false
                            }
                        }
                    }
                }
                await group.waitForAll()
            }
        case .reader(let reader):
            try? await reader.watchSnapshot { updates in
                var first = true
                for await _ in updates {
                    if !first { notifier.post(.reloaded, from: self) }
                    first = false
                }
            }
        }
    }

    // MARK: - Reading

    private func read(_ id: TweakID) -> Tweak? {
        guard let kind = kinds[id], let value = value(id, kind: kind) else { return nil }
        return Tweak(feature: id.feature, variable: id.variable, content: value, source: name)
    }

    private func value(_ id: TweakID, kind: TweakContent.Kind) -> TweakContent? {
        let key = ConfigKey([id.feature, id.variable])
        for type in Self.types(for: kind) {
            guard let content = configContent(key, type: type) else { continue }
            let value = TweakContentReader.tweakContent(content)
            if kind == .float, case .double(let double) = value { return .float(Float(double)) }
            return value
        }
        return nil
    }

    private func configContent(_ key: ConfigKey, type: ConfigType) -> ConfigContent? {
        switch source {
        case .providers(let providers):
            let absolute = AbsoluteConfigKey(key)
            for provider in providers {
                if let value = try? provider.value(forKey: absolute, type: type).value { return value.content }
            }
            return nil
        case .reader(let reader):
            return switch type {
            case .bool: reader.bool(forKey: key).map(ConfigContent.bool)
            case .int: reader.int(forKey: key).map(ConfigContent.int)
            case .double: reader.double(forKey: key).map(ConfigContent.double)
            case .string: reader.string(forKey: key).map(ConfigContent.string)
            case .stringArray: reader.stringArray(forKey: key).map(ConfigContent.stringArray)
            case .intArray: reader.intArray(forKey: key).map(ConfigContent.intArray)
            case .doubleArray: reader.doubleArray(forKey: key).map(ConfigContent.doubleArray)
            case .boolArray: reader.boolArray(forKey: key).map(ConfigContent.boolArray)
            case .bytes, .byteChunkArray: nil
            }
        }
    }

    static func types(for kind: TweakContent.Kind) -> [ConfigType] {
        switch kind {
        case .bool: [.bool]
        case .int: [.int]
        case .float, .double: [.double]
        case .string: [.string]
        case .array: [.stringArray, .intArray, .doubleArray, .boolArray]
        case .object, .null: []
        }
    }
}
