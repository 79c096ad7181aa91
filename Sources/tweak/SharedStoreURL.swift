import Foundation
import TweakKitStore
import TweakKitStorePostgres

/// Opens the shared store a `--store` URL names.
///
/// - `sqlite:PATH` (or `sqlite://PATH`, `sqlite:///absolute/path`): an SQLite file. With
///   `creating` (`set`, `serve`) a missing file and its directory are created; without it (`get`,
///   `list`, `delete`, `history`) a missing file is refused, so a mistyped
///   path says so instead of reading an empty store.
///   A file this process cannot write (nor its directory) is opened read-only: reads work, writes
///   fail saying the store is read-only. `sqlite:PATH?mode=ro` opens read-only on purpose.
/// - `postgres://…` / `postgresql://…`: PostgreSQL; connecting and every operation give up after
///   `timeout` seconds.
///
/// ```swift
/// let store = try await openSharedStore(url: "sqlite:.tweak/store.sqlite", creating: true)
/// ```
/// - Throws: ``SharedTweakStoreError/invalidURL(_:)`` for a URL it cannot open, and the store's
///   own errors (a file that is not a TweakKit store, one from a newer TweakKit).
func openSharedStore(url: String, creating: Bool, timeout: Double = 10) async throws -> any SharedTweakStore {
    guard let colon = url.firstIndex(of: ":") else {
        throw SharedTweakStoreError.invalidURL("\(url) has no scheme; use sqlite:PATH or postgres://user:password@host:port/database")
    }
    let scheme = url[..<colon].lowercased()
    let rest = String(url[url.index(after: colon)...])
    switch scheme {
    case "sqlite":
        var path = rest
        if path.hasPrefix("//") { path.removeFirst(2) }
        let readOnly = path.hasSuffix("?mode=ro")
        if readOnly { path.removeLast("?mode=ro".count) }
        guard !path.isEmpty else { throw SharedTweakStoreError.invalidURL("\(url) names no file; use sqlite:PATH") }
        guard (creating && !readOnly) || FileManager.default.fileExists(atPath: path) else {
            throw SharedTweakStoreError.unavailable("no store at \(path) (--store \(url)): the file does not exist; `tweak set` or `tweak serve` creates it")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw SharedTweakStoreError.unavailable("cannot create the directory \(directory.path) for \(path): \(error.localizedDescription)")
            }
        }
        return try await SQLiteTweakStore.open(path: path, access: readOnly ? .readOnly : .automatic)
    case "postgres", "postgresql":
        return try await PostgresTweakStore.connect(url: url, timeLimit: .seconds(max(timeout, 0.1)))
    default:
        // Not the URL itself: a mistyped postgres:// URL would show its password.
        throw SharedTweakStoreError.invalidURL("--store: unknown scheme \(scheme); use sqlite:PATH or postgres://user:password@host:port/database")
    }
}

/// How a `--store` URL is shown (as the source of its tweaks, in /health and metrics): a
/// PostgreSQL URL without its password.
func sharedStoreDisplayName(url: String) -> String {
    let scheme = url.prefix { $0 != ":" }.lowercased()
    guard scheme == "postgres" || scheme == "postgresql" else { return url }
    return (try? PostgresStoreURL(url))?.description ?? "postgres"
}
