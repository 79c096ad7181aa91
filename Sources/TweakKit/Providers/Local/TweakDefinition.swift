import Foundation

/// A tweak as a tweaks file defines it, with the fields only the file carries:
/// its declared type, owner and expiry date.
///
/// ```swift
/// let result = TweakFileParser.parse(contentsOf: url)
/// for definition in result.definitions where definition.isExpired(on: .today) {
///     print("\(definition.tweak.id) expired on \(definition.expires!)")
/// }
/// ```
public struct TweakDefinition: Sendable, Hashable {
    /// A calendar day, as written in `Expires` (`2025-06-30`).
    public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The year, 1 to 9999.
        public var year: Int
        /// The month, 1 to 12.
        public var month: Int
        /// The day of the month, starting at 1.
        public var day: Int

        /// Creates a day; `nil` when it does not exist (`2025-02-30`).
        public init?(year: Int, month: Int, day: Int) {
            guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else {
                return nil
            }
            self.year = year
            self.month = month
            self.day = day
        }

        init(unchecked year: Int, _ month: Int, _ day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// Parses `YYYY-MM-DD`.
        public init?(iso text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
            else { return nil }
            self.init(year: year, month: month, day: day)
        }

        /// `YYYY-MM-DD`.
        public var description: String {
            func pad(_ value: Int, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        }

        /// Earlier days first.
        public static func < (lhs: Day, rhs: Day) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
        }

        private static func days(inMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
    }

    /// The tweak, with the file's value and metadata.
    public var tweak: Tweak
    /// The `Type` field, when the file gives one.
    public var declaredType: TweakContent.Kind?
    /// The `Owner` field.
    public var owner: String?
    /// The `Expires` field.
    public var expires: Day?
    /// Where the tweak's variable name is written in the file.
    public var location: SourceLocation

    /// Creates a definition of `tweak` written at `location`.
    public init(tweak: Tweak, declaredType: TweakContent.Kind? = nil, owner: String? = nil, expires: Day? = nil, location: SourceLocation) {
        self.tweak = tweak
        self.declaredType = declaredType
        self.owner = owner
        self.expires = expires
        self.location = location
    }

    /// The type code sees: the declared `Type`, else String for an encrypted tweak, else the Value's type.
    public var valueType: TweakContent.Kind {
        declaredType ?? (tweak.isEncrypted ? .string : tweak.content.kind)
    }

    /// Whether the tweak's expiry date is before `day`.
    public func isExpired(on day: Day) -> Bool {
        guard let expires else { return false }
        return expires < day
    }

    /// Whether a Value of one kind may stand for a tweak of another.
    static func value(_ value: TweakContent, fits kind: TweakContent.Kind) -> Bool {
        switch (value.kind, kind) {
        case (let actual, let wanted) where actual == wanted: true
        case (.int, .float), (.int, .double), (.double, .float): true
        default: false
        }
    }
}

extension TweakContent.Kind {
    /// "a" or "an", for messages.
    var article: String { self == .int || self == .array || self == .object ? "an" : "a" }
}

extension TweakDefinition.Day {
    /// Today in the current time zone.
    public static var today: TweakDefinition.Day {
        let parts = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: Date())
        var day = TweakDefinition.Day(unchecked: 1970, 1, 1)
        if let year = parts.year, let month = parts.month, let dayOfMonth = parts.day,
           let today = TweakDefinition.Day(year: year, month: month, day: dayOfMonth) {
            day = today
        }
        return day
    }
}
