@_spi(TweakKitEngines) import TweakKit

extension CompiledCheck {
    /// Whether the check holds for the decision's input (inverted when the constraint says so).
    func holds(_ input: UnleashFeatures.Input) -> Bool {
        test.holds(input) != inverted
    }
}

extension CompiledCheck.Test {
    func holds(_ input: UnleashFeatures.Input) -> Bool {
        switch self {
        case .constant(let value):
            return value
        case .list(let field, let values, let notIn):
            guard let value = field.value(in: input) else { return notIn }
            return values.contains(value) != notIn
        case .emptyList(let notIn):
            return notIn
        case .text(let field, let op, let values, let ignoreCase):
            guard let value = field.value(in: input) else { return false }
            return Self.withBytes(of: value, lowercased: ignoreCase) { bytes in
                values.contains { needle in
                    switch op {
                    case .startsWith: bytes.starts(with: needle)
                    case .endsWith: bytes.count >= needle.count && bytes[(bytes.count - needle.count)...].elementsEqual(needle)
                    case .contains: Self.contains(bytes, needle)
                    }
                }
            }
        case .number(let field, let ordinal, let number):
            guard let text = field.value(in: input), let value = Self.number(text) else { return false }
            if case .equal = ordinal { return abs(value - number) < Double.ulpOfOne }
            return ordinal.holds(value, number)
        case .date(let field, let ordinal, let date):
            guard let text = field.value(in: input), let value = UnleashTime(rfc3339: text) else { return false }
            return ordinal.holds(value, date)
        case .semver(let field, let ordinal, let version):
            guard let text = field.value(in: input), let value = UnleashSemanticVersion(text) else { return false }
            return ordinal.holds(value, version)
        case .regex(let field, let regex):
            guard let regex, let text = field.value(in: input) else { return false }
            return regex.matches(text)
        case .cidr(let field, let networks):
            guard let text = field.value(in: input), let address = IPAddress(text) else { return false }
            return networks.contains { $0.contains(address) }
        case .hostname(let names):
            guard let hostname = input.hostname else { return false }
            return names.contains(hostname.lowercased())
        case .rollout(let percentage, let stickiness, let groupID):
            // A loop, not a lazy map: its stored closure would copy the whole input.
            for field in stickiness {
                guard let identifier = field.value(in: input) else { continue }
                return UnleashHash.normalized(group: groupID ?? input.toggleName, identifier: identifier, modulus: 100) <= UInt32(percentage)
            }
            return false
        }
    }

    /// A number as Rust's `f64` parser reads it: decimal (with exponent), `inf`, `infinity`, `nan`.
    static func number(_ text: String) -> Double? {
        guard !text.utf8.contains(where: { $0 == 0x78 || $0 == 0x58 || $0 == 0x28 || $0 == 0x70 || $0 == 0x50 }) else { return nil }
        return Double(text)
    }

    /// `body` over the UTF-8 bytes of `text`, or of `text.lowercased()`: ASCII text is lowered
    /// byte by byte in a temporary buffer (on the stack when small), anything else as Unleash's
    /// engine lowers it (Unicode's lowercase mapping).
    private static func withBytes(of text: String, lowercased: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        guard lowercased else { return text.withUTF8(body) }
        let count = text.utf8.count
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            var lowered = text.lowercased()
            return lowered.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            for (index, byte) in text.utf8.enumerated() {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}

extension ContextField {
    /// The field's text for this decision; the current time when `currentTime` is not given.
    /// Each member is read from the input in place: binding the context first would copy (and
    /// retain) every field of it on every read.
    func value(in input: UnleashFeatures.Input) -> String? {
        switch self {
        case .userId: return input.context.userId
        case .sessionId: return input.context.sessionId
        case .remoteAddress: return input.context.remoteAddress
        case .appName: return input.context.appName
        case .environment: return input.context.environment
        case .currentTime:
            if let time = input.context.currentTime { return time }
            return UnleashTime(seconds: UnleashTime.now().seconds, nanoseconds: 0).utcText
        case .property(let name): return FewKeys.value(in: input.context.properties, forKey: name)
        case .random(let upperBound): return String(Int.random(in: 1..<upperBound))
        }
    }
}
