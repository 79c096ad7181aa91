public import Foundation
public import TweakKit

/// Unleash feature toggles decided locally, as Unleash's SDKs decide them: the client features
/// payload (`/api/client/features`) or a delta response, compiled once, then answered for any
/// context with no I/O.
///
/// ```swift
/// let features = try UnleashFeatures(data: payload, source: "features.json")
/// let context = UnleashContext(userId: "user-1", properties: ["plan": "pro"])
/// features.isEnabled("new-checkout", context: context)          // true / false
/// features.variant("new-checkout", context: context).name       // "blue", or "disabled"
///
/// let updated = try features.applying(data: deltaPayload, source: "delta")  // delta events on top
/// ```
public struct UnleashFeatures: Sendable {
    /// The feature names, in the payload's order.
    public let featureNames: [String]
    /// The host name `applicationHostname` strategies compare with.
    public let hostname: String?
    /// Each behind one reference: a decision looks a feature up and hands it on with one retain,
    /// not a copy of each of its fields.
    let features: [String: Shared<CompiledFeature>]
    let definitions: UnleashDefinitions
    /// Where the payload came from, for messages.
    public let source: String

    /// Reads a client features payload (`{"features": […], "segments": […]}`) or a delta
    /// (`{"events": […]}`, applied to an empty state); throws a `TweakFileError` with the place and the problem.
    /// - Parameters:
    ///   - data: the payload's JSON.
    ///   - source: where the payload came from, named in messages.
    ///   - hostname: what `applicationHostname` strategies compare with; by default the
    ///     `hostname` environment variable, else this machine's name (as Unleash's engine does).
    public init(data: Data, source: String, hostname: String? = UnleashFeatures.currentHostname) throws(TweakFileError) {
        let root = try TweakFileError.json(from: data, file: source)
        try self.init(root: root, source: source, hostname: hostname)
    }

    /// Reads the payload in the file at `url`.
    public init(contentsOf url: URL, hostname: String? = UnleashFeatures.currentHostname) throws(TweakFileError) {
        let data = try TweakFileError.contents(of: url)
        try self.init(data: data, source: url.path, hostname: hostname)
    }

    package init(root: JSONNode, source: String, hostname: String? = UnleashFeatures.currentHostname) throws(TweakFileError) {
        let definitions = try UnleashPayloadParser(file: source).parse(root)
        self.init(definitions: definitions, source: source, hostname: hostname)
    }

    init(definitions: UnleashDefinitions, source: String, hostname: String?) {
        let compiler = UnleashCompiler(segments: definitions.segments)
        var features: [String: Shared<CompiledFeature>] = [:]
        for definition in definitions.features {
            features[definition.name] = Shared(compiler.compile(definition))
        }
        self.definitions = definitions
        self.features = features
        self.featureNames = definitions.features.map(\.name)
        self.source = source
        self.hostname = hostname
    }

    /// These features with a delta response's events applied (or replaced by a full payload).
    public func applying(data: Data, source: String) throws(TweakFileError) -> UnleashFeatures {
        let root = try TweakFileError.json(from: data, file: source)
        let definitions = try UnleashPayloadParser(file: source).parse(root, onto: definitions)
        return UnleashFeatures(definitions: definitions, source: source, hostname: hostname)
    }

    /// Whether `root` looks like an Unleash client features payload or delta: `features` whose
    /// entries have `strategies`, or `events` with a delta `type`.
    package static func isFeaturesPayload(_ root: JSONNode) -> Bool {
        if case .array(let features)? = root["features"]?.kind {
            if root["version"] != nil || root["segments"] != nil { return true }
            return features.first.map { $0["strategies"] != nil || $0["enabled"] != nil && $0["name"] != nil } ?? false
        }
        if case .array(let events)? = root["events"]?.kind, let first = events.first,
           case .string(let type)? = first["type"]?.kind {
            return ["hydration", "feature-updated", "feature-removed", "segment-updated", "segment-removed"].contains(type)
        }
        return false
    }

    /// The host name Unleash's engine would use: the `hostname` environment variable, else this machine's name.
    public static var currentHostname: String? {
        ProcessInfo.processInfo.environment["hostname"] ?? ProcessInfo.processInfo.hostName
    }

    /// Whether the payload defines `name`.
    public func contains(_ name: String) -> Bool { features[name] != nil }

    /// The feature's `impressionData` flag (whether the SDKs emit impression events for it).
    public func impressionData(_ name: String) -> Bool { features[name]?.value.impressionData ?? false }
}
