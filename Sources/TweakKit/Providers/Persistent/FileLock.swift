package import Foundation

/// An exclusive lock shared by every process that writes one file: `flock` on a lock file beside
/// it (`.<file name>.lock`), so a read-modify-write of the file by one process cannot interleave
/// with another's.
///
/// The lock file stays in place (deleting it would let two processes lock two different files);
/// the lock is released when the body returns, or by the kernel when the process dies.
///
/// ```swift
/// try FileLock(protecting: overridesURL).withLock {
///     // read the file, change it, write it back with AtomicFileWriter
/// }
/// ```
package struct FileLock: Sendable {
    /// The lock file.
    package let url: URL
    /// How long to wait for another process to release the lock before giving up.
    package var timeout: Duration

    package init(protecting file: URL, timeout: Duration = .seconds(10)) {
        url = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock")
        self.timeout = timeout
    }

    /// Runs `body` holding the lock.
    ///
    /// - Throws: ``TweakFileError`` when the lock file cannot be opened, or another process holds
    ///   the lock for longer than ``timeout``; otherwise what `body` throws.
    package func withLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = try acquire()
        defer {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try body()
    }

    private func acquire() throws(TweakFileError) -> Int32 {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TweakFileError(file: url.path, message: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: UInt32 = 200  // microseconds, doubled up to 10 ms
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw TweakFileError(file: url.path, message: "cannot lock: \(String(cString: strerror(code)))")
            }
            guard clock.now < deadline else {
                close(descriptor)
                throw TweakFileError(file: url.path, message: "another process has held the lock for more than \(timeout); try again")
            }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
        return descriptor
    }
}
