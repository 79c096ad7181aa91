import TweakKitEngineSupport

/// A value a segment condition reads, as Flagsmith's engine types it: `None` (Swift `nil`), a
/// Bool, an integer, a float or a string.
enum ContextValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// The engine's `map_any_value_to_context_value`: a string of digits becomes an integer, of
    /// digits with a fraction a float; a list or object becomes its Python `str()`.
    static func map(_ value: JSONValue) -> ContextValue? {
        switch value {
        case .null: nil
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): map(text)
        case .array, .object: .string(PythonText.repr(value))
        }
    }

    /// A string as the engine reads it: `-?[0-9]+` an integer, `-?[0-9]+\.[0-9]+` a float,
    /// anything else the string. An integer beyond 64 bits is read as a float.
    static func map(_ text: String) -> ContextValue {
        var sawDot = false
        var digitsBefore = 0
        var digitsAfter = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0: continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): if sawDot { digitsAfter += 1 } else { digitsBefore += 1 }
            case UInt8(ascii: ".") where !sawDot && digitsBefore > 0: sawDot = true
            default: return .string(text)
            }
        }
        guard digitsBefore > 0 else { return .string(text) }
        if !sawDot {
            if let number = Int(text) { return .int(number) }
            return Double(text).map(ContextValue.double) ?? .string(text)
        }
        guard digitsAfter > 0, let number = Double(text) else { return .string(text) }
        return .double(number)
    }

    /// Python's `str()` of the value: `True`, `42`, `1.5`, the text.
    var pythonString: String {
        switch self {
        case .bool(let flag): flag ? "True" : "False"
        case .int(let number): String(number)
        case .double(let number): PythonText.string(number)
        case .string(let text): text
        }
    }
}

/// Python's order of strings: by code point, which is the order of their UTF-8 bytes. Native
/// strings are compared as byte buffers; iterating `utf8` byte by byte was a tenth of the
/// `Flagsmith.Flag` benchmark.
enum CodePointOrder {
    static func compare(_ left: String, _ right: String) -> Int {
        let fast = left.utf8.withContiguousStorageIfAvailable { a in
            right.utf8.withContiguousStorageIfAvailable { b in compare(a, b) }
        }
        if let fast, let order = fast { return order }
        var left = left.utf8.makeIterator()
        var right = right.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
            }
        }
    }

    private static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let a = left[index], b = right[index]
            if a != b { return a < b ? -1 : 1 }
            index += 1
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    static func equal(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        let fast = left.utf8.withContiguousStorageIfAvailable { a in
            right.utf8.withContiguousStorageIfAvailable { b in compare(a, b) == 0 }
        }
        if let fast, let equal = fast { return equal }
        return left.utf8.elementsEqual(right.utf8)
    }

    /// Python's `needle in haystack` for strings.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let needle = needle.utf8
        guard let first = needle.first else { return true }
        let haystack = haystack.utf8
        var start = haystack.startIndex
        while let found = haystack[start...].firstIndex(of: first) {
            if haystack[found...].starts(with: needle) { return true }
            start = haystack.index(after: found)
        }
        return false
    }
}
