/// What ``JSONParser/parse(_:maximumDepth:streamingTo:)`` hands over as it reads an object of
/// objects of objects — a tweaks file's features, their variables, and each variable's fields —
/// so that no level of it is kept: one member at a time, in the order written.
package protocol JSONStreamReader {
    /// A member of the root, after its own members when its value is an object (which it then
    /// gets empty).
    mutating func rootMember(_ member: JSONMember)
    /// A member of a root member's object (a variable) whose value is not an object.
    mutating func member(_ member: JSONMember, of outerKey: String)
    /// A member of an object at the third level (a variable's field). The object's members come
    /// one after another, then ``endOfObject(key:keyLocation:of:)``.
    mutating func innerMember(key: String, keyLocation: SourceLocation, value: JSONNode)
    /// The end of an object at the third level (a variable), after its members: the key it has in
    /// the object of `outerKey`, and where that key is written.
    mutating func endOfObject(key: String, keyLocation: SourceLocation, of outerKey: String)
}

extension JSONParser {
    /// Parses a complete JSON document like ``parse(_:maximumDepth:)``, handing an object at the
    /// root to `reader` member by member, two levels down, instead of building its nodes. The
    /// returned node is then an empty object; a root that is not an object is returned whole, and
    /// `reader` is told nothing.
    ///
    /// A tweaks file is an object of features, each an object of variables, each an object of
    /// fields: streaming them keeps one field's nodes in memory at a time instead of the whole
    /// file's, and builds no array of members for each of its hundreds of thousands of variables.
    /// Duplicate keys and nesting depth are checked as ``parse(_:maximumDepth:)`` checks them, and
    /// any error is the same; after an error, what `reader` was told is to be discarded.
    package static func parse<Reader: JSONStreamReader>(
        _ bytes: [UInt8], maximumDepth: Int = 512, streamingTo reader: inout Reader
    ) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{") else {
            parser.index = 0
            parser.line = 1
            parser.lineStart = 0
            return try parser.parseDocument()
        }
        let node = try parser.parseStreamedRoot(reader: &reader)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return node
    }

    /// The root object at its `{`.
    private mutating func parseStreamedRoot<Reader: JSONStreamReader>(reader: inout Reader) throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard try enterObject() else { return JSONNode(kind: .object([]), location: start) }
        var keys = JSONKeySet()
        // One set of keys for every feature's variables and one for every variable's fields, emptied
        // for each: their storage is allocated once.
        var variableKeys = JSONKeySet()
        var fieldKeys = JSONKeySet()
        repeat {
            let (key, keyLocation) = try parseMemberName()
            try checkUnique(key, at: keyLocation, in: &keys)
            try expectColon(after: key)
            let value: JSONNode
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                value = try parseStreamedFeature(key, variableKeys: &variableKeys, fieldKeys: &fieldKeys, reader: &reader)
            } else {
                value = try parseValue()
            }
            reader.rootMember(JSONMember(key: key, keyLocation: keyLocation, value: value))
        } while try parseMemberEnd()
        return JSONNode(kind: .object([]), location: start)
    }

    /// A root member's object (a feature) at its `{`, handed over member by member.
    private mutating func parseStreamedFeature<Reader: JSONStreamReader>(
        _ outerKey: String, variableKeys keys: inout JSONKeySet, fieldKeys: inout JSONKeySet, reader: inout Reader
    ) throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard try enterObject() else { return JSONNode(kind: .object([]), location: start) }
        keys.removeAll()
        repeat {
            let (key, keyLocation) = try parseMemberName()
            try checkUnique(key, at: keyLocation, in: &keys)
            try expectColon(after: key)
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                try parseStreamedVariable(key, at: keyLocation, of: outerKey, fieldKeys: &fieldKeys, reader: &reader)
            } else {
                reader.member(JSONMember(key: key, keyLocation: keyLocation, value: try parseValue()), of: outerKey)
            }
        } while try parseMemberEnd()
        return JSONNode(kind: .object([]), location: start)
    }

    /// An object at the third level (a variable) at its `{`: its members go to the reader one by
    /// one, as `parseObject` would have read them.
    private mutating func parseStreamedVariable<Reader: JSONStreamReader>(
        _ key: String, at keyLocation: SourceLocation, of outerKey: String, fieldKeys: inout JSONKeySet, reader: inout Reader
    ) throws(JSONSyntaxError) {
        if try enterObject() {
            fieldKeys.removeAll()
            repeat {
                let (field, fieldLocation) = try parseMemberName()
                try checkUnique(field, at: fieldLocation, in: &fieldKeys)
                try expectColon(after: field)
                reader.innerMember(key: field, keyLocation: fieldLocation, value: try parseValue())
            } while try parseMemberEnd()
        }
        reader.endOfObject(key: key, keyLocation: keyLocation, of: outerKey)
    }

    private func checkUnique(_ key: String, at keyLocation: SourceLocation, in keys: inout JSONKeySet) throws(JSONSyntaxError) {
        guard keys.insert(key) else {
            throw error("duplicate key \"\(key)\" in the same object", at: keyLocation)
        }
    }
}
