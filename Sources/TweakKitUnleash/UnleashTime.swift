import TweakKitEngineSupport
/// An instant read from RFC 3339 text, to the nanosecond, for `DATE_AFTER` / `DATE_BEFORE`.
struct UnleashTime: Sendable, Comparable {
    var seconds: Int64
    var nanoseconds: Int32

    static func < (left: UnleashTime, right: UnleashTime) -> Bool {
        (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds)
    }

    /// Whether a constraint's value has the exact shape Unleash's rule grammar accepts as a date:
    /// `YYYY-MM-DDTHH:MM:SS`, optional `.mmm` (three digits), then `Z` or `±HH:MM`.
    static func matchesConstraintGrammar(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool { index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy(isDigit) }
        func byte(_ index: Int, _ expected: UInt8) -> Bool { index < bytes.count && bytes[index] == expected }
        guard digits(0..<4), byte(4, 0x2D), digits(5..<7), byte(7, 0x2D), digits(8..<10), byte(10, 0x54),
              digits(11..<13), byte(13, 0x3A), digits(14..<16), byte(16, 0x3A), digits(17..<19) else { return false }
        var index = 19
        if byte(index, 0x2E) {
            guard digits(index + 1..<index + 4) else { return false }
            index += 4
        }
        if byte(index, 0x5A) { return index + 1 == bytes.count }
        guard byte(index, 0x2B) || byte(index, 0x2D), digits(index + 1..<index + 3), byte(index + 3, 0x3A), digits(index + 4..<index + 6) else { return false }
        return index + 6 == bytes.count
    }

    /// Parses RFC 3339 (`2024-05-01T12:00:00Z`, `2024-05-01T14:00:00.5+02:00`; a space or `t`
    /// may separate date and time, the offset may be `z`, `±HH:MM` or `±HHMM`); `nil` for anything else.
    init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ options: [UInt8]) -> Bool {
            guard index < bytes.count, options.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([0x2D]), let month = number(2), expect([0x2D]), let day = number(2),
              expect([0x54, 0x74, 0x20]), let hour = number(2), expect([0x3A]), let minute = number(2), expect([0x3A]),
              let second = number(2) else { return nil }
        var nanoseconds = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 100_000_000
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                nanoseconds += Int(bytes[index] - 0x30) * scale
                scale /= 10
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            index += 1
        case 0x2B, 0x2D:
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            if index < bytes.count, bytes[index] == 0x3A { index += 1 }
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }
        let days = CivilDays.sinceEpoch(year: year, month: month, day: day)
        seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        self.nanoseconds = Int32(nanoseconds)
    }

    /// The current time.
    static func now() -> UnleashTime {
        let interval = UnleashClock.secondsSince1970()
        let whole = interval.rounded(.down)
        return UnleashTime(seconds: Int64(whole), nanoseconds: Int32((interval - whole) * 1e9))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the text Unleash's engine uses for the current time.
    var utcText: String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// The date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
