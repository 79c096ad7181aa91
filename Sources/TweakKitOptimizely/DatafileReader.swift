import TweakKit

/// Reads typed fields of a datafile's JSON, throwing errors that say where and what.
struct DatafileReader {
    let file: String

    func error(_ node: JSONNode, _ message: String) -> TweakFileError {
        TweakFileError(file: file, location: node.location, message: message)
    }

    func members(_ node: JSONNode, _ what: String) throws(TweakFileError) -> [JSONMember] {
        guard let members = node.members else { throw error(node, "\(what) must be an object, found \(node.kindDescription)") }
        return members
    }

    func array(_ node: JSONNode, _ what: String) throws(TweakFileError) -> [JSONNode] {
        guard case .array(let elements) = node.kind else { throw error(node, "\(what) must be an array, found \(node.kindDescription)") }
        return elements
    }

    /// `object[key]` as an array; a missing key is an empty array.
    func optionalArray(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> [JSONNode] {
        guard let node = object[key], !node.isNull else { return [] }
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

    func optionalBool(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> Bool? {
        guard let node = object[key], !node.isNull else { return nil }
        guard case .bool(let value) = node.kind else { throw error(node, "\"\(key)\" of \(what) must be true or false, found \(node.kindDescription)") }
        return value
    }

    func int(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> Int {
        guard let node = object[key] else { throw error(object, "\(what) has no \"\(key)\"") }
        switch node.kind {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
        default: throw error(node, "\"\(key)\" of \(what) must be an integer, found \(node.kindDescription)")
        }
    }

    func strings(_ object: JSONNode, _ key: String, in what: String) throws(TweakFileError) -> [String] {
        var result: [String] = []
        for element in try optionalArray(object, key, in: what) {
            guard case .string(let value) = element.kind else {
                throw error(element, "\"\(key)\" of \(what) must hold strings, found \(element.kindDescription)")
            }
            result.append(value)
        }
        return result
    }
}
