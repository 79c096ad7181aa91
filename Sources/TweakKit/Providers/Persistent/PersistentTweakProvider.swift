public import Foundation
import Synchronization

/// A mutable provider that keeps overrides in a JSON file: the store the `tweak` tool and the
/// editor write to.
///
/// - Writes are atomic and durable: the new content goes to a temporary file that is flushed and
///   renamed over the old one, then the directory is flushed, so a crash never leaves a
///   half-written file and a write that returned survives power loss. Temporary files a crashed
///   writer left behind are removed by the next write.
/// - Writers in every process (the `tweak` tool, the editor, app instances) take an exclusive
///   `flock` on `.<file name>.lock` beside the file and re-read the file inside it before they
///   change it, so concurrent writers never lose each other's acknowledged writes.
/// - Changes made by another process are picked up within `pollInterval`, or at once with
///   ``reloadIfChanged()``.
/// - A file that is not valid JSON is never overwritten: writes throw until it is fixed, and the
///   provider keeps serving the last good content. ``lastError`` says what is wrong.
///
/// ```swift
/// let overrides = try PersistentTweakProvider(fileURL: URL(filePath: "overrides.json"))
/// let manager = TweakManager(tweakProviders: [overrides, defaults])
/// try manager.store(true, feature: "ui_customization", variable: "display_red_view")
/// ```
///
/// The format is feature → variable → value: `{"ui_customization": {"display_red_view": true}}`.
public final class PersistentTweakProvider: MutableTweakProvider, PlainTweakProvider, Sendable {
    /// The source shown on the provider's tweaks: the file's name, unless another was given.
    public let name: String
    /// The overrides file.
    public let fileURL: URL

    private struct State {
        var values: [TweakID: TweakContent] = [:]
        var stamp: FileStamp?
        var lastError: (any Error)?
    }

    private let state = Mutex(State())
    /// Serialises read-modify-write cycles within this process.
    private let writeLock = Mutex(())
    /// Serialises them across processes.
    private let fileLock: FileLock
    private let notifier = TweakChangeNotifier()
    private let pollTask: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Opens (or prepares to create) the overrides file at `fileURL`.
    ///
    /// - Parameters:
    ///   - fileURL: the overrides file; it need not exist yet (the first write creates it).
    ///   - name: the source name; defaults to the file's name.
    ///   - pollInterval: how often to look for changes made by other processes; `nil` to never poll.
    /// - Throws: ``TweakFileError`` when the file exists but cannot be read or is not valid.
    public init(fileURL: URL, name: String? = nil, pollInterval: Duration? = .seconds(1)) throws(TweakFileError) {
        self.fileURL = fileURL
        self.name = name ?? fileURL.lastPathComponent
        self.fileLock = FileLock(protecting: fileURL)
        let loaded = try Self.load(fileURL)
        state.withLock {
            $0.values = loaded.values
            $0.stamp = loaded.stamp
        }
        if let pollInterval {
            startPolling(every: pollInterval)
        }
    }

    deinit {
        pollTask.withLock { $0?.cancel() }
    }

    /// The problem with the file on disk, when the last attempt to read it failed.
    public var lastError: (any Error)? { state.withLock { $0.lastError } }

    /// Every override in the file.
    public func allTweaks() -> [Tweak] {
        state.withLock { state in
            state.values.map { Tweak(feature: $0.key.feature, variable: $0.key.variable, content: $0.value, source: name) }
        }
    }

    /// The override of the tweak; throws ``TweakError/notFound(feature:variable:)`` when there is none.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let value = state.withLock({ $0.values[TweakID(feature: feature, variable: variable)] }) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return Tweak(feature: feature, variable: variable, content: value, source: name)
    }

    /// Writes the override to the file, atomically, under a lock that every writer in any process takes;
    /// when this returns, the override is on disk. Throws when the file cannot be written.
    public func store(_ content: TweakContent, feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(change: .set(Tweak(feature: feature, variable: variable, content: content, source: name))) { values in
            values[id] = content
        }
    }

    /// Removes the override from the file, atomically and under the writers' lock.
    public func removeValue(feature: String, variable: String) throws {
        let id = TweakID(feature: feature, variable: variable)
        try modify(change: .deleted(id)) { values in
            values.removeValue(forKey: id)
        }
    }

    /// Removes every override from the file.
    public func deleteAll() throws {
        try modify(change: .reloaded) { values in
            values.removeAll()
        }
    }

    /// Calls `handler` after each change: this process's writes, and other processes' when polling finds them.
    public func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        notifier.observe(handler)
    }

    /// Re-reads the file if another process changed it, and reports the change to observers.
    ///
    /// - Throws: ``TweakFileError`` when the file is now invalid; the last good content stays in use.
    public func reloadIfChanged() throws(TweakFileError) {
        let changed = try writeLock.withLock { _ throws(TweakFileError) in try refreshFromDisk() }
        if changed {
            notifier.post(.reloaded, from: self)
        }
    }

    // MARK: - Internals

    private static func load(_ url: URL) throws(TweakFileError) -> (values: [TweakID: TweakContent], stamp: FileStamp?) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return ([:], nil) }
        let stamp = FileStamp(path: path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TweakFileError(file: path, message: "cannot read the file: \(error.localizedDescription)")
        }
        return (try OverridesFile.decode(data, file: path), stamp)
    }

    /// Reloads when the file's stamp differs from the one last seen. Returns whether the values changed.
    /// Call with `writeLock` held.
    private func refreshFromDisk(force: Bool = false) throws(TweakFileError) -> Bool {
        let current = FileStamp(path: fileURL.path)
        let known = state.withLock { $0.stamp }
        guard force || current != known else { return false }
        do {
            let loaded = try Self.load(fileURL)
            return state.withLock { state in
                let changed = state.values != loaded.values
                state.values = loaded.values
                state.stamp = loaded.stamp
                state.lastError = nil
                return changed
            }
        } catch {
            state.withLock { $0.lastError = error }
            throw error
        }
    }

    private func modify(change: TweakChange, _ body: (inout [TweakID: TweakContent]) -> Void) throws {
        let reloaded = try writeLock.withLock { _ in
            // Other processes write this file too: the read, the change and the write happen under
            // their shared lock, so no acknowledged write of theirs is overwritten.
            try fileLock.withLock {
                // Take in what other processes wrote (always re-read: a stamp can repeat after a
                // rename); refuse to write over a broken file.
                let reloaded = try refreshFromDisk(force: true)
                var values = state.withLock { $0.values }
                body(&values)
                let data = try OverridesFile.encode(values, for: change)
                AtomicFileWriter.removeLeftovers(of: fileURL)
                try AtomicFileWriter.write(data, to: fileURL)
                let stamp = FileStamp(path: fileURL.path)
                state.withLock {
                    $0.values = values
                    $0.stamp = stamp
                }
                return reloaded
            }
        }
        // Another process's changes taken in on the way are reported too.
        if reloaded { notifier.post(.reloaded, from: self) }
        notifier.post(change, from: self)
    }

    private func startPolling(every interval: Duration) {
        let task = Task.detached(priority: .utility) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                try? self.reloadIfChanged()
            }
        }
        pollTask.withLock { $0 = task }
    }
}
