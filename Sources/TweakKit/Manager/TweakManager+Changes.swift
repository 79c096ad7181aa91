import Synchronization

/// One tweak whose resolved value (or source, or metadata) changed.
///
/// ```swift
/// for await update in manager.changes() {
///     print(update.id, update.oldTweak?.content as Any, "→", update.newTweak?.content as Any)
/// }
/// ```
public struct TweakUpdate: Sendable, Hashable {
    /// The tweak that changed.
    public var id: TweakID
    /// The tweak lookups returned before; `nil` when there was none.
    public var oldTweak: Tweak?
    /// The tweak lookups return now; `nil` when there is none any more.
    public var newTweak: Tweak?
}

/// The manager's subscribers and what they were last told.
///
/// Delivery follows one rule: what to deliver is decided inside the lock, and delivered after
/// it is released, by one thread at a time in the order it was decided. Nothing that evaluates
/// providers or runs handlers runs under this lock.
struct EventState {
    struct Subscriber {
        /// The context the subscriber observes, laid over the manager's; `nil` for the manager's own.
        var context: EvaluationContext?
        var deliver: @Sendable ([TweakUpdate]) -> Void
        var finish: @Sendable () -> Void
    }

    var nextID = 0
    var subscribers: [Int: Subscriber] = [:]
    /// Every tweak as a lookup resolves it, per observed context, at the last publication.
    var published: [EvaluationContext?: ObservedTweaks] = [:]
    /// Publications are numbered when they start; a slower, older one never undoes a newer one.
    var nextSequence: UInt64 = 0
    var publishedSequence: UInt64 = 0
    /// Decided deliveries waiting for the delivering thread.
    var pending: [(deliver: @Sendable ([TweakUpdate]) -> Void, updates: [TweakUpdate])] = []
    var isDelivering = false

    mutating func takeAll() -> [Subscriber] {
        defer { subscribers.removeAll() }
        return Array(subscribers.values)
    }
}

/// Every tweak a lookup with one context returns, targeted values evaluated.
typealias ObservedTweaks = [TweakID: Tweak]

extension TweakManager {
    /// Every change to the stack's resolved tweaks, from any provider, as it happens.
    ///
    /// ```swift
    /// for await update in manager.changes() {
    ///     print("\(update.id) is now \(update.newTweak?.content.description ?? "unset")")
    /// }
    /// ```
    /// Tweaks a contextual provider decides (flagd, Optimizely, …) are reported as a lookup with the
    /// manager's ``evaluationContext`` sees them: a new targeting rule that changes only what that
    /// context gets is a change, and so is a new ``evaluationContext``. Evaluations made to
    /// find changes are not exposures: the ``exposureHandler`` is not called for them.
    /// The stream ends when the manager goes away or the consuming task is cancelled.
    ///
    /// With a `context`, the changes as lookups with `context` laid over the manager's see them:
    /// ```swift
    /// for await update in manager.changes(context: EvaluationContext(targetingKey: "user-7")) { … }
    /// ```
    public func changes(context: EvaluationContext? = nil) -> AsyncStream<TweakUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: TweakUpdate.self)
        let id = subscribe(
            context: context,
            deliver: { updates in
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
    /// A targeted value follows the manager's ``evaluationContext``, as ``changes(context:)`` does.
    /// With a `context`, the values for lookups with `context` laid over the manager's.
    public func values<Value>(for key: TweakKey<Value>, context: EvaluationContext? = nil) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let keyID = key.id
        let defaultValue = key.defaultValue
        let id = subscribe(
            context: context,
            deliver: { updates in
                guard let update = updates.last(where: { $0.id == keyID }) else { return }
                continuation.yield(update.newTweak.flatMap { TweakValueCoding.value($0.content, as: Value.self) } ?? defaultValue)
            },
            finish: { continuation.finish() }
        )
        continuation.yield(value(for: key, context: context))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    private func subscribe(
        context: EvaluationContext?,
        deliver: @escaping @Sendable ([TweakUpdate]) -> Void,
        finish: @escaping @Sendable () -> Void
    ) -> Int {
        let baseline = observedTweaks(for: [context])[context] ?? [:]
        let id = events.withLock { events in
            if events.published[context] == nil {
                events.published[context] = baseline
            }
            defer { events.nextID += 1 }
            events.subscribers[events.nextID] = EventState.Subscriber(context: context, deliver: deliver, finish: finish)
            return events.nextID
        }
        // A change between taking the baseline and registering is delivered now.
        publishIfObserved()
        return id
    }

    private func unsubscribe(_ id: Int) {
        events.withLock { events in
            guard let removed = events.subscribers.removeValue(forKey: id) else { return }
            if !events.subscribers.values.contains(where: { $0.context == removed.context }) {
                events.published.removeValue(forKey: removed.context)
            }
        }
    }

    func snapshotForEvents() -> TweakSnapshot {
        if let snapshot = currentSnapshot() { return snapshot }
        let (generation, decrypt) = state.withLock { ($0.generation, $0.decryptionClosure) }
        return TweakSnapshot.build(providers: tweakProviders, decrypt: decrypt, generation: generation, slots: slots, logger: logger)
    }

    /// Every tweak as lookups with each context resolve it now: the snapshot's values, with the
    /// tweaks a contextual provider decides evaluated for the context (no exposures reported).
    /// Runs outside every lock.
    func observedTweaks(for contexts: Set<EvaluationContext?>) -> [EvaluationContext?: ObservedTweaks] {
        let snapshot = snapshotForEvents()
        let fixed = snapshot.slots.compactMapValues { snapshot.tweaks[$0] }
        let evaluatedIDs = snapshot.slots.compactMap { snapshot.needsEvaluation[$0.value] ? $0.key : nil }
        var observed: [EvaluationContext?: ObservedTweaks] = [:]
        for context in contexts {
            var tweaks = fixed
            // The manager's context and the observer's; never the publishing task's.
            EvaluationContext.$current.withValue(nil) {
                for id in evaluatedIDs {
                    tweaks[id] = evaluatedTweak(id, context: context, reportsExposure: false).tweak
                }
            }
            observed[context] = tweaks
        }
        return observed
    }

    /// Works out what changed for each subscriber since the last publication and delivers it,
    /// when anyone listens. Evaluation happens before the lock is taken, delivery after it is released.
    func publishIfObserved() {
        let started = events.withLock { events -> (UInt64, Set<EvaluationContext?>)? in
            guard !events.subscribers.isEmpty else { return nil }
            events.nextSequence += 1
            return (events.nextSequence, Set(events.subscribers.values.map(\.context)))
        }
        guard let (sequence, contexts) = started else { return }
        let observed = observedTweaks(for: contexts)
        let mustDeliver = events.withLock { events -> Bool in
            guard sequence > events.publishedSequence else { return false }
            events.publishedSequence = sequence
            var updatesByContext: [EvaluationContext?: [TweakUpdate]] = [:]
            for (context, now) in observed {
                guard let before = events.published[context] else { continue }
                updatesByContext[context] = Self.differences(from: before, to: now)
                events.published[context] = now
            }
            for subscriber in events.subscribers.values {
                guard let updates = updatesByContext[subscriber.context], !updates.isEmpty else { continue }
                events.pending.append((subscriber.deliver, updates))
            }
            guard !events.isDelivering, !events.pending.isEmpty else { return false }
            events.isDelivering = true
            return true
        }
        if mustDeliver { deliverPending() }
    }

    /// Delivers decided updates in order, outside the lock, until none are left. Only one thread
    /// delivers at a time; others leave their updates to it.
    private func deliverPending() {
        while true {
            let batch = events.withLock { events in
                defer { events.pending.removeAll() }
                if events.pending.isEmpty { events.isDelivering = false }
                return events.pending
            }
            guard !batch.isEmpty else { return }
            for (deliver, updates) in batch { deliver(updates) }
        }
    }

    static func differences(from old: ObservedTweaks, to new: ObservedTweaks) -> [TweakUpdate] {
        var updates: [TweakUpdate] = []
        for (id, tweak) in new where old[id] != tweak {
            updates.append(TweakUpdate(id: id, oldTweak: old[id], newTweak: tweak))
        }
        for (id, tweak) in old where new[id] == nil {
            updates.append(TweakUpdate(id: id, oldTweak: tweak, newTweak: nil))
        }
        return updates.sorted { $0.id < $1.id }
    }
}
