// SQLite is there when the package trait Store is on; TweakKitStore's provider and protocols are there either way.
#if Store
import Foundation
import SQLiteNIO
import TweakKit

/// Reading the store's rows back into values, with errors that say where a bad row is.
enum SQLiteRows {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date a stored millisecond count stands for; the same conversion everywhere, so a
    /// change returned by a write equals the same change read back.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func integer(_ row: SQLiteRow, _ column: String, location: String) throws -> Int64 {
        guard let value = row.column(column)?.integer else {
            throw SharedTweakStoreError.notATweakStore("\(location): column \(column) is not an integer")
        }
        return Int64(value)
    }

    static func text(_ row: SQLiteRow, _ column: String, location: String) throws -> String {
        guard let data = row.column(column), case .text(let value) = data else {
            throw SharedTweakStoreError.notATweakStore("\(location): column \(column) is not text")
        }
        return value
    }

    static func optionalText(_ row: SQLiteRow, _ column: String, location: String) throws -> String? {
        guard let data = row.column(column), !data.isNull else { return nil }
        return try text(row, column, location: location)
    }

    /// The value in the `kind`/`value` column pair; `nil` when both are NULL.
    static func value(_ row: SQLiteRow, kind: String, value: String, location: String) throws -> TweakContent? {
        guard let kindText = try optionalText(row, kind, location: location) else { return nil }
        return try StoredValueCoding.decode(kind: kindText, json: try text(row, value, location: location), location: location)
    }

    static func tweak(_ row: SQLiteRow, path: String) throws -> StoredTweak {
        let feature = try text(row, "feature", location: "\(path): table tweak")
        let variable = try text(row, "variable", location: "\(path): table tweak")
        let location = "\(path): tweak \(feature).\(variable)"
        guard let content = try self.value(row, kind: "kind", value: "value", location: location) else {
            throw SharedTweakStoreError.notATweakStore("\(location) has no value")
        }
        return StoredTweak(
            feature: feature, variable: variable, value: content,
            version: try integer(row, "version", location: location),
            updatedAt: date(milliseconds: try integer(row, "updated_at", location: location)),
            author: try text(row, "author", location: location)
        )
    }

    static func change(_ row: SQLiteRow, path: String) throws -> StoredTweakChange {
        let sequence = try integer(row, "sequence", location: "\(path): table tweak_change")
        let location = "\(path): change \(sequence)"
        return StoredTweakChange(
            sequence: sequence,
            feature: try text(row, "feature", location: location),
            variable: try text(row, "variable", location: location),
            old: try value(row, kind: "old_kind", value: "old_value", location: location),
            new: try value(row, kind: "new_kind", value: "new_value", location: location),
            version: try integer(row, "version", location: location),
            author: try text(row, "author", location: location),
            at: date(milliseconds: try integer(row, "at", location: location)),
            reason: try optionalText(row, "reason", location: location)
        )
    }
}
#endif
