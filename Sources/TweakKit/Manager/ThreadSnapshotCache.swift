import Foundation

/// Each thread's own reference to the snapshots it last read, so a lookup takes no lock and
/// touches no reference count shared with other threads.
///
/// A lookup compares the manager's published generation (one atomic load of a word that only
/// changes when tweaks change) with the generation of the snapshot this thread holds; when they
/// match, it reads that snapshot without retaining it. Only after a change does a thread take
/// the manager's lock, once, to fetch the new snapshot.
///
/// A thread keeps at most ``capacity`` snapshots (one per manager it reads), released when the
/// thread ends or when other managers push them out.
///
/// Its `Unmanaged` references and unchecked exclusivity pay in `Paired.<size>.StringKey`,
/// `Paired.100000.TypedMixed` and `Paired.Threads.*` (`Benchmarks/run`): every lookup goes through them.
final class ThreadSnapshotCache {
    static let capacity = 8

    private struct Entry {
        var manager: UInt64
        var generation: UInt64
        var snapshot: Unmanaged<TweakSnapshot>
    }

    /// The runtime's exclusivity check is skipped (it looked up a thread-local access set on
    /// every read: about a quarter of a typed lookup's time). It could only catch overlapping
    /// accesses on one thread, and there are none: only this cache's thread reaches it (through
    /// thread-local storage), each method reads or writes `entries` once without calling out,
    /// and releasing a snapshot runs no code that reaches the cache.
    @exclusivity(unchecked) private var entries: [Entry] = []

    deinit {
        for entry in entries { entry.snapshot.release() }
    }

    /// The snapshot of `manager` at `generation`, if this thread holds it; it stays alive while
    /// this thread does not store another snapshot for the same manager.
    @inline(__always)
    func snapshot(manager: UInt64, generation: UInt64) -> Unmanaged<TweakSnapshot>? {
        // The most recently stored entry is first; one manager per process is the common case.
        for index in entries.indices where entries[index].manager == manager {
            return entries[index].generation == generation ? entries[index].snapshot : nil
        }
        return nil
    }

    /// Keeps `snapshot` as this thread's snapshot of `manager`.
    func store(_ snapshot: TweakSnapshot, manager: UInt64) {
        let retained = Unmanaged.passRetained(snapshot)
        if let index = entries.firstIndex(where: { $0.manager == manager }) {
            entries[index].snapshot.release()
            entries.remove(at: index)
        } else if entries.count >= Self.capacity, let last = entries.popLast() {
            last.snapshot.release()
        }
        entries.insert(Entry(manager: manager, generation: snapshot.generation, snapshot: retained), at: 0)
    }

    // MARK: - Thread-local storage

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadSnapshotCache>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadSnapshotCache>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The calling thread's cache, owned by the thread's storage (use it without retaining).
    @inline(__always)
    static var current: Unmanaged<ThreadSnapshotCache> {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadSnapshotCache>.fromOpaque(pointer)
        }
        let cache = Unmanaged.passRetained(ThreadSnapshotCache())
        pthread_setspecific(key, cache.toOpaque())
        return cache
    }
}
