public import Foundation
@_spi(TweakKitEngines) package import TweakKit
public import TweakKitEngineSupport

/// The SDK payload GrowthBook serves at `/api/features/{clientKey}`: features, saved groups and
/// contextual bandits, plain or encrypted.
///
/// ```swift
/// let payload = try GrowthBookPayload(data: data, source: "features.json", decryptionKey: key)
/// var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: ["id": "user-1"]))
/// evaluator.evaluateFeature("checkout-redesign").on
/// ```
///
/// `encryptedFeatures` and `encryptedSavedGroups` (AES-128/256-CBC, `iv.ciphertext` in base64)
/// are decrypted with `decryptionKey`; without a key they are an error.
public struct GrowthBookPayload: Sendable, CustomReflectable {
    /// Features by key.
    public var features: [String: GrowthBookFeature] {
        get { storage.fields.features }
        set { storage.fields.features = newValue }
    }
    /// Feature keys in the order the payload lists them.
    public var featureKeys: [String] {
        get { storage.fields.featureKeys }
        set { storage.fields.featureKeys = newValue }
    }
    /// Saved groups by id: lists of values (`$inGroup`) or typed groups (`$savedGroup`).
    public var savedGroups: GrowthBookValue {
        get { storage.fields.savedGroups }
        set { storage.fields.savedGroups = newValue }
    }
    /// Contextual bandit definitions by id, as the payload has them.
    public var contextualBandits: GrowthBookValue {
        get { storage.fields.contextualBandits }
        set { storage.fields.contextualBandits = newValue }
    }
    /// Every attribute a rule hashes, for loading sticky bucket documents.
    public var hashAttributes: [String] {
        get { storage.fields.hashAttributes }
        set { storage.fields.hashAttributes = newValue }
    }

    /// The feature named `key`, read in place (``features`` would return a copy of the dictionary);
    /// among a few features by comparing keys, which is cheaper than hashing the key.
    func feature(_ key: String) -> GrowthBookFeature? {
        FewKeys.value(in: storage.fields.features, forKey: key)
    }

    /// The fields, behind one reference: every evaluator holds the payload, and creating one is
    /// then one retain, not one per field. Changing a field copies them first when another
    /// payload (or an evaluator) shares them.
    private var storage: CopyOnWrite<Fields>

    private struct Fields: Sendable {
        var features: [String: GrowthBookFeature]
        var featureKeys: [String]
        var savedGroups: GrowthBookValue
        var contextualBandits: GrowthBookValue
        var hashAttributes: [String]
    }

    /// The fields, as `print`, `dump` and test failures show them (not the storage behind them).
    public var customMirror: Mirror {
        Mirror(reflecting: storage.fields)
    }

    /// A payload without features.
    public static let empty = GrowthBookPayload(features: [], savedGroups: .object([]), contextualBandits: .object([]))

    /// A payload from parsed parts.
    public init(features: [GrowthBookFeature], savedGroups: GrowthBookValue = .object([]), contextualBandits: GrowthBookValue = .object([])) {
        var attributes: [String] = []
        var seen: Set<String> = []
        for feature in features {
            for rule in feature.rules {
                for attribute in rule.hashAttributes where seen.insert(attribute).inserted { attributes.append(attribute) }
            }
        }
        // Sized once: a dictionary grown feature by feature rehashes every key at each doubling.
        var byKey: [String: GrowthBookFeature] = Dictionary(minimumCapacity: features.count)
        for feature in features { byKey[feature.key] = feature }   // the last of a repeated key wins
        storage = CopyOnWrite(Fields(
            features: byKey,
            featureKeys: features.map(\.key), savedGroups: savedGroups, contextualBandits: contextualBandits,
            hashAttributes: attributes
        ))
    }

    /// Parses the payload's JSON bytes; `source` names the file or URL in errors.
    public init(data: Data, source: String, decryptionKey: String? = nil) throws(GrowthBookPayloadError) {
        let node: JSONNode
        do {
            node = try JSONParser.parse(Array(data))
        } catch {
            throw GrowthBookPayloadError(source: source, path: "", message: "not JSON: \(error)")
        }
        try self.init(json: GrowthBookValue(node), source: source, decryptionKey: decryptionKey)
    }

    /// Reads a parsed payload.
    public init(json root: GrowthBookValue, source: String, decryptionKey: String? = nil) throws(GrowthBookPayloadError) {
        let reader = GrowthBookReader(source: source)
        _ = try reader.object(root, "")
        var featuresValue = root["features"] ?? .object([])
        var savedGroups = root["savedGroups"] ?? .object([])
        if let encrypted = try reader.string(root, "encryptedFeatures", "") {
            featuresValue = try Self.decryptJSON(encrypted, key: decryptionKey, field: "encryptedFeatures", source: source)
        }
        if let encrypted = try reader.string(root, "encryptedSavedGroups", "") {
            savedGroups = try Self.decryptJSON(encrypted, key: decryptionKey, field: "encryptedSavedGroups", source: source)
        }
        if savedGroups.isNull { savedGroups = .object([]) }
        _ = try reader.object(savedGroups, "savedGroups")
        var features: [GrowthBookFeature] = []
        if !featuresValue.isNull {
            for member in try reader.object(featuresValue, "features") {
                features.append(try reader.feature(key: member.key, member.value, "features.\(member.key)"))
            }
        }
        let bandits = root["contextualBandits"].flatMap { $0.isNull ? nil : $0 } ?? .object([])
        _ = try reader.object(bandits, "contextualBandits")
        try GrowthBookPrerequisiteGraph.check(features, source: source)
        self.init(features: features, savedGroups: savedGroups, contextualBandits: bandits)
    }

    private static func decryptJSON(_ encrypted: String, key: String?, field: String, source: String) throws(GrowthBookPayloadError) -> GrowthBookValue {
        guard let key else {
            throw GrowthBookPayloadError(source: source, path: field, message: "the payload is encrypted: give the SDK connection's decryption key")
        }
        let text: String
        do {
            text = try GrowthBookDecryption.decrypt(encrypted, key: key)
        } catch {
            throw GrowthBookPayloadError(source: source, path: field, message: error.description)
        }
        do {
            return try GrowthBookValue(jsonText: text)
        } catch {
            throw GrowthBookPayloadError(source: source, path: field, message: "decrypts to text that is not JSON: \(error)")
        }
    }

    /// Whether a parsed JSON document is a GrowthBook SDK payload: an object with a `features`
    /// object (of feature objects) or an `encryptedFeatures` string, and no member that GrowthBook's
    /// payload does not have (so a tweaks file with a feature named "features" is not one).
    package static func isPayload(_ root: JSONNode) -> Bool {
        guard let members = root.members, members.allSatisfy({ payloadKeys.contains($0.key) }) else { return false }
        if let features = root["features"]?.members {
            return features.allSatisfy { feature in
                feature.value.members?.allSatisfy { ["defaultValue", "rules", "project", "id"].contains($0.key) } ?? false
            }
        }
        if case .string? = root["encryptedFeatures"]?.kind { return true }
        return false
    }

    private static let payloadKeys: Set<String> = [
        "status", "features", "savedGroups", "dateUpdated", "experiments", "encryptedFeatures", "encryptedSavedGroups",
        "encryptedExperiments", "contextualBandits",
    ]
}
