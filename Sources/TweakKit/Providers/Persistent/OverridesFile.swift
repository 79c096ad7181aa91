import Foundation

/// The on-disk format of ``PersistentTweakProvider``: feature → variable → value.
///
/// ```json
/// {
///   "ui_customization": {
///     "display_red_view": true,
///     "label_text": "Hello"
///   }
/// }
/// ```
enum OverridesFile {
    static func decode(_ data: Data, file: String) throws(TweakFileError) -> [TweakID: TweakContent] {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let root = try TweakFileError.json(from: data, file: file, maximumSize: TweakInputLimits.overridesFile, what: "an overrides file")
        guard let features = root.members else {
            throw TweakFileError(file: file, location: root.location, message: "the top level must be an object of features, found \(root.kindDescription)")
        }
        var values: [TweakID: TweakContent] = [:]
        for feature in features {
            guard let variables = feature.value.members else {
                throw TweakFileError(file: file, location: feature.value.location, feature: feature.key,
                                     message: "a feature must be an object of variable values, found \(feature.value.kindDescription)")
            }
            for variable in variables {
                guard let value = variable.value.tweakValue else {
                    throw TweakFileError(file: file, location: variable.value.location, feature: feature.key, variable: variable.key,
                                         message: "null is not a tweak value")
                }
                values[TweakID(feature: feature.key, variable: variable.key)] = value
            }
        }
        return values
    }

    /// Encodes `values`; a value JSON cannot hold (NaN, infinity) is reported against the tweak of `change`.
    static func encode(_ values: [TweakID: TweakContent], for change: TweakChange) throws -> Data {
        do {
            return try encode(values)
        } catch {
            if case .set(let tweak) = change {
                throw TweakError.invalidValue(feature: tweak.feature, variable: tweak.variable, reason: "\(error)")
            }
            throw error
        }
    }

    static func encode(_ values: [TweakID: TweakContent]) throws(JSONWriter.NonFiniteNumber) -> Data {
        var grouped: [String: TweakContent] = [:]
        for (id, value) in values {
            var variables: [String: TweakContent] = [:]
            if case .object(let existing) = grouped[id.feature] { variables = existing }
            variables[id.variable] = value
            grouped[id.feature] = .object(variables)
        }
        return Data((try JSONWriter.string(.object(grouped), indent: 2) + "\n").utf8)
    }
}

/// Identifies one version of a file: replacing it (rename) changes the inode, editing it the size or date.
struct FileStamp: Equatable {
    var inode: UInt64
    var size: UInt64
    var modified: Date

    init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        modified = attributes[.modificationDate] as? Date ?? .distantPast
    }
}
