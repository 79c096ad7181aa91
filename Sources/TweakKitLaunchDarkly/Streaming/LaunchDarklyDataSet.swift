import TweakKitEngineSupport

/// LaunchDarkly's data set as its SDKs' in-memory store keeps it: flags and segments by key, each
/// with its `version`, a deleted one kept as a tombstone (`{"key", "version", "deleted": true}`)
/// so that an older update arriving after the delete cannot bring it back. Changed by the stream's
/// events and written back as `{"flags": {…}, "segments": {…}}`, the polling body, which the flag
/// loader reads (it skips tombstones).
///
/// Each change is one pass over one kind's items; nothing recurses over the items' contents.
struct LaunchDarklyDataSet {
    /// The two kinds of item, by the name of their map (and of their stream path, `/flags/KEY`).
    enum Kind: String, CaseIterable {
        case flags, segments
    }

    /// One kind's items in the data's order, with where each key is.
    struct Items {
        var members: [JSONValue.Member] = []
        var index: [String: Int] = [:]

        init(_ members: [JSONValue.Member]) {
            self.members = members
            for (position, member) in members.enumerated() { index[member.key] = position }
        }

        /// The stored item's version; `nil` when there is none (`Int.min` for one without a version).
        func version(of key: String) -> Int? {
            guard let position = index[key] else { return nil }
            guard case .int(let version)? = members[position].value["version"] else { return Int.min }
            return version
        }

        mutating func set(_ key: String, _ value: JSONValue) {
            if let position = index[key] {
                members[position].value = value
            } else {
                index[key] = members.count
                members.append(JSONValue.Member(key: key, value: value))
            }
        }
    }

    private var items: [Kind: Items]

    /// An empty data set: what a patch before any data is applied to.
    init() {
        items = [.flags: Items([]), .segments: Items([])]
    }

    /// The data set `{"flags": {…}, "segments": {…}}` (either may be absent: empty).
    init(_ root: JSONValue, path: String) throws(LaunchDarklyDataError) {
        guard case .object = root else { throw LaunchDarklyDataError(path: path, message: "must be an object, found \(DataReader.describe(root))") }
        items = [:]
        for kind in Kind.allCases {
            let place = path.isEmpty ? kind.rawValue : "\(path).\(kind.rawValue)"
            switch root[kind.rawValue] {
            case nil, .null?: items[kind] = Items([])
            case .object(let members)?: items[kind] = Items(members)
            case let other?: throw LaunchDarklyDataError(path: place, message: "must be an object, found \(DataReader.describe(other))")
            }
        }
    }

    /// The stored item's version (a tombstone's too); `nil` when there is none.
    func version(of kind: Kind, _ key: String) -> Int? {
        items[kind]?.version(of: key)
    }

    /// Stores `item` (it has `version`) unless the stored one's version is the same or newer;
    /// returns whether it did.
    mutating func upsert(_ kind: Kind, _ key: String, _ item: JSONValue, version: Int) -> Bool {
        if let stored = items[kind]?.version(of: key), stored >= version { return false }
        items[kind, default: Items([])].set(key, item)
        return true
    }

    /// Replaces the item with a tombstone of `version` unless the stored one's version is the same
    /// or newer; returns whether it did.
    mutating func delete(_ kind: Kind, _ key: String, version: Int) -> Bool {
        upsert(kind, key, ["key": .string(key), "version": .int(version), "deleted": true], version: version)
    }

    /// `{"flags": {…}, "segments": {…}}`.
    var json: JSONValue {
        .object(Kind.allCases.map { kind in JSONValue.Member(key: kind.rawValue, value: .object(items[kind]?.members ?? [])) })
    }
}
