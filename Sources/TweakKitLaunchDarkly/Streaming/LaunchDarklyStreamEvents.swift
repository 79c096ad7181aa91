public import Foundation
public import TweakKit
import TweakKitEngineSupport

/// LaunchDarkly's stream (`GET {stream}/all`), read as its server-side SDKs read it:
///
/// - `put` (`{"path": "/", "data": {"flags": {…}, "segments": {…}}}`): the whole data set.
/// - `patch` (`{"path": "/flags/KEY", "data": {…the flag, with its version…}}`, or `/segments/KEY`):
///   the item replaces the stored one only when its `version` is newer.
/// - `delete` (`{"path": "/flags/KEY", "version": N}`): the item becomes a tombstone of version
///   `N`, again only when `N` is newer, so a patch older than the delete arriving later is ignored.
///
/// Other events and paths are ignored, as the SDKs ignore them. Data that is not what its event
/// promises throws, and the provider keeps the data in service. The data set that results is
/// served and kept as last-known-good in the polling body's shape, tombstones included.
///
/// ```swift
/// var configuration = RemoteConfiguration(url: LaunchDarklyFlagsFormat.pollingURL(), documentFormat: .launchDarkly())
/// configuration.streamURL = LaunchDarklyFlagsFormat.streamURL()   // put, patch and delete, read by the format
/// ```
extension LaunchDarklyFlagsFormat: TweakStreamEventHandling {
    /// The new data set after a `put`, `patch` or `delete`; anything else is ignored.
    ///
    /// ```swift
    /// let event = TweakStreamEvent(name: "delete", data: #"{"path": "/flags/new-checkout", "version": 9}"#)
    /// let action = try LaunchDarklyFlagsFormat().handle(event, current: body)   // .replace(the data set with a tombstone)
    /// ```
    public func handle(_ event: TweakStreamEvent, current: Data?) throws -> TweakStreamEventAction {
        switch event.name {
        case "put", "patch", "delete": break
        default: return .ignore(because: "LaunchDarkly's stream has no event \"\(event.name)\"")
        }
        let message = try DataReader.fields(try Self.json(event.data, "the \(event.name) event"), event.name)
        if event.name == "put" {
            let data = try LaunchDarklyDataSet(message["data"] ?? .null, path: "put.data")
            return .replace(Data(data.json.jsonText.utf8))
        }
        let path = try DataReader.requiredString(message, "path", event.name)
        guard let (kind, key) = Self.item(at: path) else {
            return .ignore(because: "\(event.name) of \(path): not a flag or segment")
        }
        var dataSet = LaunchDarklyDataSet()
        if let current {
            dataSet = try LaunchDarklyDataSet(try Self.json(String(decoding: current, as: UTF8.self), "the data in service"), path: "")
        }
        let changed: Bool
        let version: Int
        if event.name == "patch" {
            let item = message["data"] ?? .null
            let fields = try DataReader.fields(item, "patch.data")
            version = try DataReader.requiredInt(fields, "version", "patch.data")
            if let itemKey = try DataReader.optionalString(fields, "key", "patch.data"), itemKey != key {
                throw LaunchDarklyDataError(path: "patch.data.key", message: "is \"\(itemKey)\", the path says \"\(key)\"")
            }
            changed = dataSet.upsert(kind, key, item, version: version)
        } else {
            version = try DataReader.requiredInt(message, "version", "delete")
            changed = dataSet.delete(kind, key, version: version)
        }
        guard changed else {
            let stored = dataSet.version(of: kind, key).map(String.init) ?? "none"
            return .ignore(because: "\(event.name) of \(path) version \(version): version \(stored) is in service")
        }
        return .replace(Data(dataSet.json.jsonText.utf8))
    }

    /// `/flags/KEY` or `/segments/KEY` as the kind and key (the key is the rest of the path).
    static func item(at path: String) -> (LaunchDarklyDataSet.Kind, String)? {
        for kind in LaunchDarklyDataSet.Kind.allCases {
            let prefix = "/\(kind.rawValue)/"
            if path.hasPrefix(prefix), path.count > prefix.count { return (kind, String(path.dropFirst(prefix.count))) }
        }
        return nil
    }

    private static func json(_ text: String, _ what: String) throws(LaunchDarklyDataError) -> JSONValue {
        do {
            return try JSONValue(jsonText: text)
        } catch {
            throw LaunchDarklyDataError(path: "", message: "\(what) is not JSON: \(error)")
        }
    }
}
