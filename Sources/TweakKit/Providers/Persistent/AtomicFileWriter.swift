package import Foundation

/// Replaces a file so that readers see the old content or the new, never a part, and so that a
/// replacement that returned survives a crash or power loss.
package enum AtomicFileWriter {
    /// Writes `data` to a temporary file beside `url`, flushes it to disk, renames it over `url`,
    /// then flushes the directory so the rename itself is on disk.
    ///
    /// A temporary file left by a writer that died mid-write is named
    /// `.<file name>.<UUID>.tmp`; ``removeLeftovers(of:)`` deletes them.
    package static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent("\(temporaryPrefix(of: url))\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw failure(url.path, "cannot replace the file", code)
        }
        try synchronizeDirectory(directory)
    }

    /// Deletes the temporary files a writer of `url` left behind when it died between creating
    /// and renaming one. Call it only while no other writer of `url` can be writing (with the
    /// file's ``FileLock`` held).
    package static func removeLeftovers(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(of: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent)." }

    /// `fsync` on the directory: the rename that replaced a file in it is durable once this returns.
    static func synchronizeDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(directory.path, "cannot open the directory to flush it", errno) }
        defer { close(descriptor) }
        while fsync(descriptor) != 0 {
            let code = errno
            // Some file systems cannot flush a directory (EINVAL); the rename is as durable as they allow.
            if code == EINVAL { return }
            if code != EINTR { throw failure(directory.path, "cannot flush the directory", code) }
        }
    }

    static func failure(_ path: String, _ what: String, _ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path,
            NSLocalizedDescriptionKey: "\(path): \(what): \(String(cString: strerror(code)))",
        ])
    }
}
