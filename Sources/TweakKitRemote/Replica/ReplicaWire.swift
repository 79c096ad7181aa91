import Foundation
import TweakKit

/// What `tweak serve` sends a follower: the snapshot of `GET /api/replica` and the changes of
/// `GET /api/events`, read into the core's types. Every field is checked; a message that is not
/// what the server sends is refused with what and where.
enum ReplicaWire {
    /// The body of `GET /api/replica`: `{"sequence": N, "tweaks": [{"feature", "variable", "value", "version"}]}`.
    static func snapshot(_ data: Data, source: String) throws(RemoteError) -> SequencedTweakSnapshot {
        guard case .object(let root) = try json(data, source: source) else {
            throw invalid("\(source): the snapshot is not a JSON object")
        }
        guard let sequence = root["sequence"]?.wholeNumber, sequence >= 0 else {
            throw invalid("\(source): the snapshot's \"sequence\" is not a whole number")
        }
        guard case .array(let tweaks)? = root["tweaks"] else {
            throw invalid("\(source): the snapshot has no \"tweaks\" array")
        }
        var entries: [SequencedTweakSnapshot.Entry] = []
        entries.reserveCapacity(tweaks.count)
        for (index, item) in tweaks.enumerated() {
            guard case .object(let fields) = item,
                  case .string(let feature)? = fields["feature"], case .string(let variable)? = fields["variable"],
                  let value = fields["value"], let version = fields["version"]?.wholeNumber
            else {
                throw invalid("\(source): tweaks[\(index)] of the snapshot needs a String \"feature\" and \"variable\", a \"value\" and a whole \"version\"")
            }
            entries.append(SequencedTweakSnapshot.Entry(feature: feature, variable: variable, value: value, version: version))
        }
        return SequencedTweakSnapshot(sequence: sequence, entries: entries)
    }

    /// The change a `change` or `flag` event carries under `change`: its sequence, tweak, new
    /// value (`null` when removed), version, author, time and reason.
    static func change(_ text: String, source: String) throws(RemoteError) -> StoredTweakChange {
        guard case .object(let event) = try json(Data(text.utf8), source: source), case .object(let fields)? = event["change"] else {
            throw invalid("\(source): a change event has no \"change\" object")
        }
        guard let sequence = fields["sequence"]?.wholeNumber,
              case .string(let feature)? = fields["feature"], case .string(let variable)? = fields["variable"],
              let version = fields["version"]?.wholeNumber
        else {
            throw invalid("\(source): a change event's \"change\" needs a whole \"sequence\" and \"version\" and a String \"feature\" and \"variable\"")
        }
        func value(_ key: String) -> TweakContent? {
            guard let content = fields[key], content != .null else { return nil }
            return content
        }
        var at = Date()
        if case .string(let text)? = fields["at"], let date = try? Date(text, strategy: .iso8601) { at = date }
        var author = ""
        if case .string(let text)? = fields["author"] { author = text }
        var reason: String?
        if case .string(let text)? = fields["reason"] { reason = text }
        return StoredTweakChange(
            sequence: sequence, feature: feature, variable: variable, old: value("old"), new: value("new"), version: version,
            author: author, at: at, reason: reason)
    }

    private static func json(_ data: Data, source: String) throws(RemoteError) -> TweakContent {
        do {
            return try TweakContent(jsonText: String(decoding: data, as: UTF8.self))
        } catch {
            throw invalid("\(source): not valid JSON: \(error)")
        }
    }

    private static func invalid(_ message: String) -> RemoteError {
        RemoteError(.invalidPayload, message)
    }
}

extension TweakContent {
    /// An Int, or a Double without a fraction that fits one.
    fileprivate var wholeNumber: Int64? {
        switch self {
        case .int(let value): Int64(value)
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: Int64(value)
        default: nil
        }
    }
}
