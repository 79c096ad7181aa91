/// Structural equality and hashing: same kinds all the way down (`1` is not `1.0`), members in
/// the same order, doubles by `==` (so a NaN is unequal to itself). Walked with an explicit stack.
///
/// ```swift
/// JSONValue.array([1, .null]) == [1, .null]   // true
/// JSONValue.int(1) == .double(1)              // false
/// ```
extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.null, .null): continue
            case (.bool(let x), .bool(let y)): if x != y { return false }
            case (.int(let x), .int(let y)): if x != y { return false }
            case (.double(let x), .double(let y)): if x != y { return false }
            case (.string(let x), .string(let y)): if x != y { return false }
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                pending.append(contentsOf: zip(x, y))
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                for (m, n) in zip(x, y) {
                    guard m.key == n.key else { return false }
                    pending.append((m.value, n.value))
                }
            default: return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        walk { event in
            switch event {
            case .scalar(let value):
                switch value {
                case .null: hasher.combine(0 as UInt8)
                case .bool(let flag): hasher.combine(1 as UInt8); hasher.combine(flag)
                case .int(let number): hasher.combine(2 as UInt8); hasher.combine(number)
                case .double(let number): hasher.combine(3 as UInt8); hasher.combine(number)
                case .string(let text): hasher.combine(4 as UInt8); hasher.combine(text)
                case .array, .object: break
                }
            case .beginArray(let count): hasher.combine(5 as UInt8); hasher.combine(count)
            case .beginObject(let count): hasher.combine(6 as UInt8); hasher.combine(count)
            case .key(let key): hasher.combine(key)
            case .endArray: hasher.combine(7 as UInt8)
            case .endObject: hasher.combine(8 as UInt8)
            }
        }
    }
}

extension JSONValue {
    /// Whether two values write the same `JSON.stringify` text, as GrowthBook's SDKs compare a
    /// condition value with an attribute: the same JSON types all the way down (`true` is never
    /// `1`, `1` is `1.0`), object keys in JavaScript's property order (array-index keys ascending,
    /// then the rest as written), and NaN and the infinities written as `null`.
    ///
    /// ```swift
    /// JSONValue.jsonTextEqual(["a": 1, "b": [true, .null]], ["a": 1.0, "b": [true, .null]])   // true
    /// JSONValue.jsonTextEqual(["a": 1, "b": 2], ["b": 2, "a": 1])                             // false
    /// JSONValue.jsonTextEqual(["1": 1, "0": 0], ["0": 0, "1": 1])                             // true
    /// ```
    public static func jsonTextEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                for (m, n) in zip(x, y) { pending.append((m.asWrittenInJSON, n.asWrittenInJSON)) }
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                let xs = javaScriptPropertyOrder(x), ys = javaScriptPropertyOrder(y)
                for (m, n) in zip(xs, ys) {
                    guard m.key == n.key else { return false }
                    pending.append((m.value.asWrittenInJSON, n.value.asWrittenInJSON))
                }
            case (.array, _), (.object, _), (_, .array), (_, .object): return false
            default:
                if !strictEqual(a, b) { return false }
            }
        }
        return true
    }

    /// `JSON.stringify` writes NaN and the infinities as `null`.
    private var asWrittenInJSON: JSONValue {
        if case .double(let number) = self, !number.isFinite { return .null }
        return self
    }

    /// Members in JavaScript's property order: array-index keys (`"0"` … `"4294967294"`, no
    /// leading zero) ascending, then the other keys in the order written.
    public static func javaScriptPropertyOrder(_ members: [Member]) -> [Member] {
        func index(_ key: String) -> UInt32? {
            guard !key.isEmpty, key.utf8.count <= 10, key.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  key == "0" || !key.hasPrefix("0"), let value = UInt32(key), value < UInt32.max else { return nil }
            return value
        }
        var indexed: [(UInt32, Member)] = []
        var others: [Member] = []
        for member in members {
            if let value = index(member.key) { indexed.append((value, member)) } else { others.append(member) }
        }
        if indexed.isEmpty { return others }
        return indexed.sorted { $0.0 < $1.0 }.map(\.1) + others
    }
}
