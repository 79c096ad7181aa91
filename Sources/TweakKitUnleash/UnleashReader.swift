import TweakKit

/// Reads typed fields of an Unleash payload's JSON, throwing errors that say where and what.
struct UnleashReader {
    let file: String

    func error(_ node: JSONNode, _ message: String) -> TweakFileError {
        TweakFileError(file: file, location: node.location, message: message)
    }

    func object(_ node: JSONNode, _ what: String) throws(TweakFileError) -> JSONNode {
        guard node.members != nil else { throw error(node, "\(what) must be an object, found \(node.kindDescription)") }
        return node
    }

    func array(_ node: JSONNode, _ what: String) throws(TweakFileError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else { throw error(node, "\(what) must be an array, found \(node.kindDescription)") }
        return elements
    }

    /// `object[key]` as an array; missing or `null` is `nil`.
    func optionalArray(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> [JSONNode]? {
        guard let node = object[key], !node.isNull else { return nil }
        return try array(node, "\"\(key)\" of \(what)")
    }

    func string(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> String {
        guard let node = object[key] else { throw error(object, "\(what) has no \"\(key)\"") }
        guard case .string(let value) = node.kind else { throw error(node, "\"\(key)\" of \(what) must be a string, found \(node.kindDescription)") }
        return value
    }

    func optionalString(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> String? {
        guard let node = object[key], !node.isNull else { return nil }
        guard case .string(let value) = node.kind else { throw error(node, "\"\(key)\" of \(what) must be a string, found \(node.kindDescription)") }
        return value
    }

    func bool(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> Bool {
        guard let node = object[key] else { throw error(object, "\(what) has no \"\(key)\"") }
        guard case .bool(let value) = node.kind else { throw error(node, "\"\(key)\" of \(what) must be true or false, found \(node.kindDescription)") }
        return value
    }

    func optionalBool(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> Bool? {
        guard let node = object[key], !node.isNull else { return nil }
        guard case .bool(let value) = node.kind else { throw error(node, "\"\(key)\" of \(what) must be true or false, found \(node.kindDescription)") }
        return value
    }

    func int(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> Int {
        guard let node = object[key] else { throw error(object, "\(what) has no \"\(key)\"") }
        switch node.kind {
        case .int(let value) where Int(Int32.min)...Int(Int32.max) ~= value: return value
        default: throw error(node, "\"\(key)\" of \(what) must be a 32-bit integer, found \(node.kindDescription)")
        }
    }

    func strings(_ node: JSONNode, _ what: String) throws(TweakFileError) -> [String] {
        var result: [String] = []
        for element in try array(node, what) {
            guard case .string(let value) = element.kind else { throw error(element, "\(what) must hold strings, found \(element.kindDescription)") }
            result.append(value)
        }
        return result
    }

    func optionalStrings(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> [String]? {
        guard let node = object[key], !node.isNull else { return nil }
        return try strings(node, "\"\(key)\" of \(what)")
    }
}
