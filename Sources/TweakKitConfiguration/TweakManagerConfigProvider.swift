public import Configuration
import Foundation
public import TweakKit

/// A swift-configuration `ConfigProvider` over a `TweakManager`: a service reads its tweaks
/// through a `ConfigReader` like any other configuration, and `watch` follows their changes.
///
/// ```swift
/// let config = ConfigReader(providers: [EnvironmentVariablesProvider(), TweakManagerConfigProvider(manager: manager)])
/// let alpha = config.double(forKey: "ui_customization.red_view_alpha_component", default: 1.0)
/// let redView = config.bool(forKey: ConfigKey("ui_customization.display_red_view", context: ["targetingKey": "user-42"]), default: false)
/// try await config.watchBool(forKey: "ui_customization.display_red_view") { updates in
///     for await value in updates { print("now", value ?? false) }
/// }
/// ```
///
/// The key `feature.variable` (components `["feature", "variable"]`; more components are joined
/// into the variable) names a tweak; a key's context is the evaluation context (`targetingKey`
/// and attributes), so flags with targeting are evaluated for it. Values are typed as
/// swift-configuration's JSON files type them: Int and Double convert into each other when
/// exact, Bool and numbers into each other, strings stay strings, arrays of one element type
/// become that array type, and a string is read as `bytes` when it is Base64. Another type
/// throws ``TweakConfigError``.
public final class TweakManagerConfigProvider: ConfigProvider, Sendable {
    /// The manager read.
    public let manager: TweakManager
    /// The name access reports show.
    public let providerName: String

    /// Reads `manager`'s tweaks.
    public init(manager: TweakManager, name: String = "TweakManager") {
        self.manager = manager
        self.providerName = name
    }

    /// The tweak's value now, evaluated with the key's context.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try Self.lookup(key, type: type, content: content(for: key))
    }

    /// The same as ``value(forKey:type:)``: tweaks are in memory.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    /// The value now, then again after every change to the tweak.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Subscribed before the first read, so no change falls between the two.
        let changes = manager.changes()
        let id = Self.tweakID(key)
        let read: @Sendable () -> Result<LookupResult, any Error> = { [self] in Result { try value(forKey: key, type: type) } }
        continuation.yield(read())
        let forwarder = Task {
            var last = Self.comparable(read())
            for await update in changes where id == nil || update.id == id || self.isEvaluated(update.id) {
                let current = read()
                let comparable = Self.comparable(current)
                guard comparable != last else { continue }
                last = comparable
                continuation.yield(current)
            }
            continuation.finish()
        }
        defer { forwarder.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// The tweaks as they are now, evaluated with each key's context when read.
    public func snapshot() -> any ConfigSnapshot {
        Snapshot(providerName: providerName, values: manager.allResolvedTweaks().reduce(into: [:]) { values, resolved in
            if let tweak = resolved.tweak, !resolved.isEvaluatedPerLookup { values[resolved.id] = TweakContentReader.content(of: tweak) }
        }, manager: manager)
    }

    /// A snapshot now, then another after every change.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let changes = manager.changes()
        continuation.yield(snapshot())
        let forwarder = Task {
            for await _ in changes { continuation.yield(self.snapshot()) }
            continuation.finish()
        }
        defer { forwarder.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    struct Snapshot: ConfigSnapshot {
        var providerName: String
        var values: [TweakID: TweakContent]
        var manager: TweakManager

        func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
            guard let id = TweakManagerConfigProvider.tweakID(key) else { return LookupResult(encodedKey: key.description, value: nil) }
            let content = values[id] ?? TweakManagerConfigProvider.evaluate(id, key: key, manager: manager)
            return try TweakManagerConfigProvider.lookup(key, type: type, content: content)
        }
    }

    // MARK: - Reading

    private func content(for key: AbsoluteConfigKey) -> TweakContent? {
        guard let id = Self.tweakID(key) else { return nil }
        return Self.evaluate(id, key: key, manager: manager)
    }

    private func isEvaluated(_ id: TweakID) -> Bool {
        manager.resolvedTweak(feature: id.feature, variable: id.variable).isEvaluatedPerLookup
    }

    static func evaluate(_ id: TweakID, key: AbsoluteConfigKey, manager: TweakManager) -> TweakContent? {
        let details = manager.evaluationDetails(id, default: TweakContent.bool(false), context: evaluationContext(key.context))
        return details.source == nil ? nil : details.value
    }

    /// `["feature", "variable"]` (or `["feature.variable"]`) is the tweak `feature.variable`.
    static func tweakID(_ key: AbsoluteConfigKey) -> TweakID? {
        TweakID(parsing: key.components.joined(separator: "."))
    }

    /// A key's context as an evaluation context: `targetingKey` (a string) and the other entries as attributes.
    static func evaluationContext(_ context: [String: ConfigContextValue]) -> EvaluationContext? {
        guard !context.isEmpty else { return nil }
        var evaluation = EvaluationContext(targetingKey: nil)
        for (name, value) in context {
            let content: TweakContent = switch value {
            case .string(let text): .string(text)
            case .int(let int): .int(int)
            case .double(let double): .double(double)
            case .bool(let bool): .bool(bool)
            }
            if name == "targetingKey", case .string(let key) = content { evaluation.targetingKey = key } else { evaluation.attributes[name] = content }
        }
        return evaluation
    }

    static func lookup(_ key: AbsoluteConfigKey, type: ConfigType, content: TweakContent?) throws -> LookupResult {
        guard let content else { return LookupResult(encodedKey: key.description, value: nil) }
        guard let converted = TweakContentReader.configContent(content, as: type) else {
            throw TweakConfigError.notConvertible(key: key.description, type: type, found: content.kind)
        }
        return LookupResult(encodedKey: key.description, value: ConfigValue(converted, isSecret: false))
    }

    private static func comparable(_ result: Result<LookupResult, any Error>) -> String {
        switch result {
        case .success(let lookup): "value \(lookup.value.map { "\($0.content)" } ?? "none")"
        case .failure(let error): "error \(error)"
        }
    }
}

/// A tweak's value that cannot be read as the type asked for.
public enum TweakConfigError: Error, Equatable, CustomStringConvertible {
    /// The tweak at `key` is a `found`, which does not convert to `type`.
    case notConvertible(key: String, type: ConfigType, found: TweakContent.Kind)

    /// What went wrong, naming the key and both types.
    public var description: String {
        switch self {
        case .notConvertible(let key, let type, let found): "tweak \(key) is \(found.rawValue), which cannot be read as \(type.rawValue)"
        }
    }
}
