import Foundation

/// An IPv4 or IPv6 address as 128 bits, most significant first (IPv4 in the top 32), strictly
/// parsed. Two integers, not an array: reading an IPv4 address per decision allocates nothing
/// (an IPv6 address is still parsed through arrays).
struct IPAddress: Sendable, Hashable {
    var high: UInt64
    var low: UInt64
    var isIPv4: Bool

    /// The address of 4 (IPv4) or 16 bytes, most significant first.
    init(bytes: [UInt8], isIPv4: Bool) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in bytes.prefix(16).enumerated() {
            if index < 8 { high |= UInt64(byte) << (56 - 8 * index) } else { low |= UInt64(byte) << (120 - 8 * index) }
        }
        (self.high, self.low, self.isIPv4) = (high, low, isIPv4)
    }

    /// `192.168.0.1` or an IPv6 address (`2001:db8::1`, `::ffff:10.0.0.1`); no zone, no leading zeros in IPv4 parts.
    init?(_ text: String) {
        if let v4 = Self.strictIPv4(Substring(text)) {
            self.init(bits: v4)
        } else if let v6 = Self.ipv6(Substring(text)) {
            self.init(bytes: v6, isIPv4: false)
        } else {
            return nil
        }
    }

    /// The IPv4 address whose four bytes are `bits`, most significant first.
    private init(bits: UInt32) {
        (high, low, isIPv4) = (UInt64(bits) << 32, 0, true)
    }

    /// The 16 bytes (an IPv4 address's four, then zeros).
    var bytes: [UInt8] {
        (0..<16).map { index in UInt8(truncatingIfNeeded: index < 8 ? high >> (56 - 8 * index) : low >> (120 - 8 * index)) }
    }

    /// Four decimal parts; `lenient` (network addresses) allows fewer parts, leading zeros and `+`.
    static func ipv4(_ text: Substring, lenient: Bool) -> [UInt8]? {
        if !lenient {
            return strictIPv4(text).map { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var result: [UInt8] = [0, 0, 0, 0]
        for (index, part) in parts.enumerated() {
            guard let value = UInt8(part) else { return nil }
            result[index] = value
        }
        return result
    }

    /// Four parts of one to three digits, each at most 255 and without a leading zero, read from
    /// the bytes (an address is parsed on every decision that reads one), as one 32-bit number.
    private static func strictIPv4(_ text: Substring) -> UInt32? {
        var parts: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var part = 0, value = 0, digits = 0, leadingZero = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, part < 3 else { return nil }
                switch part {
                case 0: parts.0 = UInt8(value)
                case 1: parts.1 = UInt8(value)
                default: parts.2 = UInt8(value)
                }
                part += 1
                value = 0
                digits = 0
                continue
            }
            guard byte >= 0x30, byte <= 0x39, digits < 3, !(leadingZero && digits > 0) else { return nil }
            if digits == 0 { leadingZero = byte == 0x30 }
            value = value * 10 + Int(byte - 0x30)
            guard value <= 255 else { return nil }
            digits += 1
        }
        guard part == 3, digits > 0 else { return nil }
        return UInt32(parts.0) << 24 | UInt32(parts.1) << 16 | UInt32(parts.2) << 8 | UInt32(value)
    }

    static func ipv6(_ text: Substring) -> [UInt8]? {
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var compressed = false
        var embedded: [UInt8]?
        if let range = text.range(of: "::") {
            compressed = true
            let after = text[range.upperBound...]
            if after.contains("::") { return nil }
            guard groups(text[..<range.lowerBound], allowIPv4: false, into: &head, embedded: &embedded) != nil,
                  groups(after, allowIPv4: true, into: &tail, embedded: &embedded) != nil else { return nil }
        } else {
            guard groups(text, allowIPv4: true, into: &head, embedded: &embedded) != nil else { return nil }
        }
        let embeddedGroups = embedded == nil ? 0 : 2
        let count = head.count + tail.count + embeddedGroups
        if compressed ? count > 7 : count != 8 { return nil }
        var all = head + Array(repeating: 0, count: 8 - count) + tail
        if let embedded {
            all.append(UInt16(embedded[0]) << 8 | UInt16(embedded[1]))
            all.append(UInt16(embedded[2]) << 8 | UInt16(embedded[3]))
        }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Colon-separated hex groups; the last may be a dotted IPv4 address when `allowIPv4`.
    private static func groups(_ text: Substring, allowIPv4: Bool, into output: inout [UInt16], embedded: inout [UInt8]?) -> Void? {
        if text.isEmpty { return () }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, allowIPv4, part.contains(".") {
                guard let v4 = ipv4(part, lenient: false) else { return nil }
                embedded = v4
                continue
            }
            guard (1...4).contains(part.count), part.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66) }),
                  let value = UInt16(part, radix: 16) else { return nil }
            output.append(value)
        }
        return ()
    }
}

/// An address range (`10.0.0.0/8`, `2001:db8::/32`) or a single address, read as Unleash's
/// engine reads its `IPs` and `IN_CIDR` values; a value that is neither is left out.
struct IPNetwork: Sendable {
    var address: IPAddress
    var prefix: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let addressText = parts[0]
        if let v4 = IPAddress.ipv4(addressText, lenient: true) {
            address = IPAddress(bytes: v4, isIPv4: true)
            if parts.count == 2 {
                if let mask = IPAddress.ipv4(parts[1], lenient: false) {
                    guard let length = Self.prefixLength(ofMask: mask) else { return nil }
                    prefix = length
                } else {
                    guard let length = UInt8(parts[1]), length <= 32 else { return nil }
                    prefix = Int(length)
                }
            } else {
                prefix = 32
            }
        } else if let v6 = IPAddress.ipv6(addressText) {
            address = IPAddress(bytes: v6, isIPv4: false)
            if parts.count == 2 {
                guard let length = UInt8(parts[1]), length <= 128 else { return nil }
                prefix = Int(length)
            } else {
                prefix = 128
            }
        } else {
            return nil
        }
    }

    private static func prefixLength(ofMask mask: [UInt8]) -> Int? {
        let bits = mask.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let ones = bits.leadingZeroBitCount == 0 ? (~bits).leadingZeroBitCount : 0
        return bits << ones == 0 || ones == 32 ? ones : nil
    }

    func contains(_ other: IPAddress) -> Bool {
        guard other.isIPv4 == address.isIPv4 else { return false }
        // The first `prefix` bits (of 32 or 128) of each address, compared.
        let highMask: UInt64 = prefix <= 0 ? 0 : prefix >= 64 ? .max : .max << UInt64(64 - prefix)
        let lowMask: UInt64 = prefix <= 64 ? 0 : prefix >= 128 ? .max : .max << UInt64(128 - prefix)
        return address.high & highMask == other.high & highMask && address.low & lowMask == other.low & lowMask
    }
}
