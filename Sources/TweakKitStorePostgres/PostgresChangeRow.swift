import Foundation
import TweakKit
import TweakKitStore

/// A `tweakkit_changes` row as it is read back.
struct PostgresChangeRow {
    static let columns = "sequence, feature, variable, old_kind, old_json, new_kind, new_json, version, author, at, reason"
    typealias Columns = (Int64, String, String, String?, String?, String?, String?, Int64, String, Date, String?)

    var columns: Columns

    init(_ columns: Columns) { self.columns = columns }

    func change(store: PostgresStoreURL) throws(SharedTweakStoreError) -> StoredTweakChange {
        try change(place: "\(store) tweakkit_changes sequence \(columns.0)")
    }

    /// The change, its values decoded; an error names `place`.
    func change(place: String) throws(SharedTweakStoreError) -> StoredTweakChange {
        let (sequence, feature, variable, oldKind, oldJSON, newKind, newJSON, version, author, at, reason) = columns
        func value(_ kind: String?, _ json: String?) throws(SharedTweakStoreError) -> TweakContent? {
            guard let kind, let json else { return nil }
            return try StoredValueText(kind: kind, json: json).content(at: place)
        }
        return StoredTweakChange(
            sequence: sequence, feature: feature, variable: variable, old: try value(oldKind, oldJSON),
            new: try value(newKind, newJSON), version: version, author: author, at: at, reason: reason
        )
    }
}
