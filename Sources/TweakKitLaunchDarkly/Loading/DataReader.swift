import TweakKitEngineSupport

/// Typed fields of LaunchDarkly flag data, with errors that name the path. `null` counts as absent
/// for an optional field, as the SDKs read it.
struct DataReader {
    typealias Failure = LaunchDarklyDataError

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func object(_ value: JSONValue, _ path: String) throws(Failure) -> [JSONValue.Member] {
        guard case .object(let members) = value else { throw Failure(path: path, message: "must be an object, found \(describe(value))") }
        return members
    }

    /// The members of `object`, by key, read in one pass (the object's keys are unique).
    static func fields(_ value: JSONValue, _ path: String) throws(Failure) -> [String: JSONValue] {
        let members = try object(value, path)
        var fields: [String: JSONValue] = [:]
        fields.reserveCapacity(members.count)
        for member in members where !member.value.isNull { fields[member.key] = member.value }
        return fields
    }

    static func optionalBool(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> Bool {
        guard let value = fields[key] else { return false }
        guard case .bool(let flag) = value else { throw Failure(path: "\(path).\(key)", message: "must be true or false, found \(describe(value))") }
        return flag
    }

    static func optionalString(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let text) = value else { throw Failure(path: "\(path).\(key)", message: "must be a string, found \(describe(value))") }
        return text
    }

    static func requiredString(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> String {
        guard let text = try optionalString(fields, key, path) else { throw Failure(path: "\(path).\(key)", message: "is required") }
        return text
    }

    static func optionalInt(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> Int? {
        guard let value = fields[key] else { return nil }
        guard case .int(let number) = value else { throw Failure(path: "\(path).\(key)", message: "must be an integer, found \(describe(value))") }
        return number
    }

    static func requiredInt(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> Int {
        guard let number = try optionalInt(fields, key, path) else { throw Failure(path: "\(path).\(key)", message: "is required") }
        return number
    }

    static func optionalNumber(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) {
        guard let value = fields[key] else { return }
        guard value.number != nil else { throw Failure(path: "\(path).\(key)", message: "must be a number, found \(describe(value))") }
    }

    static func optionalArray(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> [JSONValue] {
        guard let value = fields[key] else { return [] }
        guard case .array(let elements) = value else { throw Failure(path: "\(path).\(key)", message: "must be an array, found \(describe(value))") }
        return elements
    }

    static func requiredArray(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> [JSONValue] {
        guard fields[key] != nil else { throw Failure(path: "\(path).\(key)", message: "is required") }
        return try optionalArray(fields, key, path)
    }

    static func strings(_ elements: [JSONValue], _ path: String) throws(Failure) -> [String] {
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else { throw Failure(path: "\(path)[\(index)]", message: "must be a string, found \(describe(element))") }
            result.append(text)
        }
        return result
    }
}
