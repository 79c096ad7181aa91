import TweakKitEngineSupport

/// Times as LaunchDarkly's `before` and `after` operators read them: a number is milliseconds
/// since the Unix epoch; a string is an RFC 3339 (ISO 8601 extended) date-time with a time
/// zone (`Z` or `±hh:mm`), fractions of a second to the microsecond (further digits dropped). A time without a zone, or
/// anything else, is no time (never matches).
enum LaunchDarklyTime {
    /// Milliseconds since the epoch, or `nil`.
    static func milliseconds(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .string(let text): return parse(Array(text.utf8))
        default: return nil
        }
    }

    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `YYYY-MM-DD?hh:mm[:ss[.ffffff]](Z|±hh:mm)`, `?` any one character but a digit or line end.
    static func parse(_ bytes: [UInt8]) -> Double? {
        guard bytes.count >= 16, let year = digits(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"), let month = digits(bytes, 5, 2),
              bytes[7] == UInt8(ascii: "-"), let day = digits(bytes, 8, 2), bytes[10] < 0x80,
              !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[10]),
              let hour = digits(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = digits(bytes, 14, 2)
        else { return nil }
        var index = 16
        var second = 0
        var micros = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            guard let value = digits(bytes, index + 1, 2) else { return nil }
            second = value
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                let start = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                let count = index - start
                guard count >= 1 else { return nil }
                // Beyond the microsecond, digits are dropped.
                let used = min(count, 6)
                var scale = 1
                for _ in used..<6 { scale *= 10 }
                micros = (digits(bytes, start, used) ?? 0) * scale
            }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = digits(bytes, index + 1, 2), index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let minutes = digits(bytes, index + 4, 2), index + 6 == bytes.count, hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard (1...12).contains(month), year >= 1, hour < 24, minute < 60, second < 60 else { return nil }
        let monthDays = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthDays[month - 1]).contains(day) else { return nil }
        let days = CivilDays.sinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        let totalMicros = seconds * 1_000_000 + micros
        return Double(totalMicros) / 1_000_000 * 1000
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
}
