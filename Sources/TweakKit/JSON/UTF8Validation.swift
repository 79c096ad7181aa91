/// Finds where bytes stop being UTF-8, so that text with a bad byte is refused with its place
/// rather than decoded with U+FFFD in its stead (which `String(decoding:as:)` does silently).
package enum UTF8Validation {
    /// The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or `nil` when every
    /// byte does.
    ///
    /// ```swift
    /// UTF8Validation.firstInvalidOffset([0x61, 0xC3, 0xA9, 0xFF])  // 3
    /// ```
    package static func firstInvalidOffset<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The length the lead byte announces and the range its second byte must fall in.
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: return index - bytes.startIndex
            }
            for position in 1..<length {
                let next = index + position
                guard next < bytes.endIndex else { return index - bytes.startIndex }
                let range = position == 1 ? secondRange : 0x80...0xBF
                guard range.contains(bytes[next]) else { return index - bytes.startIndex }
            }
            index += length
        }
        return nil
    }
}
