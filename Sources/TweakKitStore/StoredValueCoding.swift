package import TweakKit

/// How a store keeps a ``TweakContent``: its kind's name and its JSON text, so a Float stays a
/// Float (JSON alone would read it back as a Double).
package enum StoredValueCoding {
    package static func encode(_ value: TweakContent) throws -> (kind: String, json: String) {
        (value.kind.rawValue, try value.jsonText())
    }

    /// - Parameter location: where the value was read, for the error.
    package static func decode(kind: String, json: String, location: String) throws -> TweakContent {
        guard let kindValue = TweakContent.Kind(rawValue: kind) else {
            throw SharedTweakStoreError.notATweakStore("\(location): unknown value kind \"\(kind)\"")
        }
        let parsed: TweakContent
        do {
            parsed = try TweakContent(jsonText: json)
        } catch {
            throw SharedTweakStoreError.notATweakStore("\(location): the value is not JSON: \(error)")
        }
        switch (kindValue, parsed) {
        case (.float, .double(let double)): return .float(Float(double))
        case (.float, .int(let int)): return .float(Float(int))
        case (.double, .int(let int)): return .double(Double(int))
        default:
            guard parsed.kind == kindValue else {
                throw SharedTweakStoreError.notATweakStore("\(location): a \(kind) holds \(json)")
            }
            return parsed
        }
    }
}
