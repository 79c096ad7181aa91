import Synchronization

/// One tweak whose resolved value (or source, or metadata) changed.
public struct TweakUpdate: Sendable, Hashable {
    public var id: TweakID
    /// The tweak lookups returned before; `nil` when there was none.
    public var oldTweak: Tweak?
    /// The tweak lookups return now; `nil` when there is none any more.
    public var newTweak: Tweak?
}

struct EventState {
    struct Subscriber {
        var deliver: @Sendable ([TweakUpdate], TweakSnapshot) -> Void
        var finish: @Sendable () -> Void
    }

    var nextID = 0
    var subscribers: [Int: Subscriber] = [:]
    var lastPublished: TweakSnapshot?

    mutating func takeAll() -> [Subscriber] {
        defer { subscribers.removeAll() }
        return Array(subscribers.values)
    }
}

extension TweakManager {
    /// Every change to the stack's resolved tweaks, from any provider, as it happens.
    ///
    /// ```swift
    /// for await update in manager.changes() {
    ///     print("\(update.id) is now \(update.newTweak?.value.description ?? "unset")")
    /// }
    /// ```
    /// The stream ends when the manager goes away or the consuming task is cancelled.
    public func changes() -> AsyncStream<TweakUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: TweakUpdate.self)
        let id = subscribe(
            deliver: { updates, _ in
                for update in updates { continuation.yield(update) }
            },
            finish: { continuation.finish() }
        )
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// The key's value now, then again each time it changes (only the latest if the reader lags).
    ///
    /// ```swift
    /// for await alpha in manager.values(for: .redViewAlpha) { redView.alpha = alpha }
    /// ```
    public func values<Value>(for key: TweakKey<Value>) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let keyID = key.id
        let id = subscribe(
            deliver: { [weak self] updates, snapshot in
                guard updates.contains(where: { $0.id == keyID }) else { return }
                let resolution = snapshot.resolution(for: keyID) ?? ResolvedTweak(id: keyID)
                if resolution.isEvaluatedPerLookup, let self {
                    // Evaluated for the manager's context, as every lookup of it is.
                    continuation.yield(self.value(for: key))
                } else {
                    continuation.yield(TweakDetails(resolution: resolution, defaultValue: key.defaultValue).value)
                }
            },
            finish: { continuation.finish() }
        )
        continuation.yield(value(for: key))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    private func subscribe(
        deliver: @escaping @Sendable ([TweakUpdate], TweakSnapshot) -> Void,
        finish: @escaping @Sendable () -> Void
    ) -> Int {
        let baseline = snapshotForEvents()
        let id = events.withLock { events in
            if events.subscribers.isEmpty || events.lastPublished == nil {
                events.lastPublished = baseline
            }
            defer { events.nextID += 1 }
            events.subscribers[events.nextID] = EventState.Subscriber(deliver: deliver, finish: finish)
            return events.nextID
        }
        // A change between taking the baseline and registering is delivered now.
        publishIfObserved()
        return id
    }

    private func unsubscribe(_ id: Int) {
        _ = events.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    func snapshotForEvents() -> TweakSnapshot {
        if let snapshot = currentSnapshot() { return snapshot }
        let (generation, decrypt) = state.withLock { ($0.generation, $0.decryptionClosure) }
        return TweakSnapshot.build(providers: tweakProviders, decrypt: decrypt, generation: generation, slots: slots, logger: logger)
    }

    /// Rebuilds and delivers the differences since the last delivery, when anyone listens.
    func publishIfObserved() {
        guard events.withLock({ !$0.subscribers.isEmpty }) else { return }
        let snapshot = snapshotForEvents()
        events.withLock { events in
            guard let last = events.lastPublished else {
                events.lastPublished = snapshot
                return
            }
            // A slower rebuild of an older generation must not undo a newer delivery.
            guard snapshot.generation > last.generation else { return }
            let updates = Self.differences(from: last, to: snapshot)
            events.lastPublished = snapshot
            guard !updates.isEmpty else { return }
            // Yielding to a stream resumes its reader elsewhere; it runs no user code here.
            for subscriber in events.subscribers.values {
                subscriber.deliver(updates, snapshot)
            }
        }
    }

    static func differences(from old: TweakSnapshot, to new: TweakSnapshot) -> [TweakUpdate] {
        var updates: [TweakUpdate] = []
        for (id, entry) in new.entries where old.entries[id]?.tweak != entry.tweak {
            updates.append(TweakUpdate(id: id, oldTweak: old.entries[id]?.tweak, newTweak: entry.tweak))
        }
        for (id, entry) in old.entries where new.entries[id] == nil && entry.tweak != nil {
            updates.append(TweakUpdate(id: id, oldTweak: entry.tweak, newTweak: nil))
        }
        return updates.sorted { $0.id < $1.id }
    }
}
