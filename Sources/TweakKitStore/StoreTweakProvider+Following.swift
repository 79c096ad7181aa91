import Foundation
import Synchronization
import TweakKit

extension StoreTweakProvider {
    /// Loads the store's snapshot, then follows its changes in the background until ``stop()``.
    ///
    /// ```swift
    /// try await provider.start()   // throws when the first snapshot cannot be read
    /// ```
    /// - Throws: the store's error when the first snapshot cannot be read; nothing is started then.
    public func start() async throws {
        try await reload()
        following.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.follow() }
        }
    }

    /// Stops following the store; lookups keep answering from the last snapshot.
    public func stop() {
        let task = following.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
    }

    /// Loads the snapshot and follows the store's changes until the calling task is cancelled:
    /// what a service runner calls. Retries the first snapshot with backoff.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await reload()
                break
            } catch {
                guard await backOff() else { return }
            }
        }
        await follow()
    }

    /// Replaces the snapshot with the store's current one and tells observers.
    func reload() async throws {
        let snapshot: (tweaks: [StoredTweak], sequence: Int64)
        do {
            snapshot = try await store.snapshot()
        } catch {
            recordFailure(error)
            throw error
        }
        let tweaks = Dictionary(snapshot.tweaks.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        state.withLock { state in
            state.tweaks = tweaks
            state.sequence = snapshot.sequence
            state.recentChanges.removeAll()
            state.lastError = nil
            state.consecutiveFailures = 0
            state.flagGeneration += 1
        }
        changeNotifier.post(.reloaded, from: self)
        refreshFlags()
        sequenceSignals.signal()
    }

    /// Waits for signals and catches up after each, until cancelled or the store closes.
    private func follow() async {
        if let announcing = store as? any StoreChangeAnnouncing {
            await follow(announcing.changeNotices())
            return
        }
        let signals = store.changeSignals()
        // A change committed between the snapshot and the subscription has no signal of its own.
        await catchUp()
        for await _ in signals {
            guard !Task.isCancelled else { return }
            await catchUp()
        }
    }

    /// Follows a store that announces its changes: a notice at or below the sequence held says
    /// nothing new; announced changes that follow on from it are applied without a read; anything
    /// else (a gap, a notice without its changes) is caught up with ``SharedTweakStore/changes(after:limit:)``.
    private func follow(_ notices: AsyncStream<StoreChangeNotice>) async {
        await catchUp()
        for await notice in notices {
            guard !Task.isCancelled else { return }
            if let held = state.withLock({ $0.sequence }), notice.last <= held { continue }
            if applyAnnounced(notice.changes) { continue }
            await catchUp()
        }
    }

    /// Applies announced changes when they follow on from the sequence held; `false` when they do
    /// not (or there are none), leaving it to a catch-up.
    private func applyAnnounced(_ changes: [StoredTweakChange]) -> Bool {
        guard let after = state.withLock({ $0.sequence }), !changes.isEmpty, Self.isContiguous(changes, after: after) else {
            return false
        }
        guard let posts = applyChanges(changes, after: after) else { return false }   // another update moved the sequence meanwhile
        recordSuccess()
        deliver(posts, changes: changes)
        return true
    }

    /// Tells observers of applied changes, and `onChangesApplied`.
    private func deliver(_ posts: [TweakChange]?, changes: [StoredTweakChange]) {
        guard let posts else { return }
        post(posts)
        refreshFlags()
        sequenceSignals.signal()
        if let onChangesApplied {
            onChangesApplied(StoreChangesApplied(source: name, changes: changes, appliedAt: Date()))
        }
    }

    /// Reads changes until there are no more, retrying with backoff while the store fails.
    private func catchUp() async {
        while !Task.isCancelled {
            do {
                try await readChanges()
                return
            } catch {
                recordFailure(error)
                guard await backOff() else { return }
            }
        }
    }

    /// One attempt to catch up, for after a write; a failure is left to the follower's retries.
    func catchUpOnce() async {
        do {
            try await readChanges()
        } catch {
            recordFailure(error)
        }
    }

    private func readChanges() async throws {
        let pageSize = 500
        while true {
            guard let after = state.withLock({ $0.sequence }) else {
                try await reload()
                return
            }
            let changes = try await store.changes(after: after, limit: pageSize)
            guard !changes.isEmpty else {
                recordSuccess()
                return
            }
            guard Self.isContiguous(changes, after: after) else {
                // A change is missing (or the store was replaced): start again from a snapshot.
                try await reload()
                return
            }
            let posts = applyChanges(changes, after: after)
            recordSuccess()
            deliver(posts, changes: changes)
            if changes.count < pageSize { return }
        }
    }

    static func isContiguous(_ changes: [StoredTweakChange], after: Int64) -> Bool {
        var expected = after + 1
        for change in changes {
            guard change.sequence == expected else { return false }
            expected += 1
        }
        return true
    }

    /// Applies `changes` to the tweaks held; returns what to tell observers (flag definitions are
    /// told through ``flags``). Changes that another update already applied (the sequence moved on
    /// meanwhile) are skipped: `nil` then.
    private func applyChanges(_ changes: [StoredTweakChange], after: Int64) -> [TweakChange]? {
        state.withLock { state -> [TweakChange]? in
            guard state.sequence == after, let last = changes.last else { return nil }
            var posts: [TweakChange] = []
            // In place: copying the dictionary first made every change copy every tweak the store
            // holds (copy on write still does when a reader holds the dictionary at that moment).
            for change in changes {
                state.recentChanges.append(change)
                if let value = change.new {
                    let stored = StoredTweak(
                        feature: change.feature, variable: change.variable, value: value, version: change.version,
                        updatedAt: change.at, author: change.author
                    )
                    state.tweaks[change.id] = stored
                    if Self.isFlag(change.id) { state.flagGeneration += 1 } else { posts.append(.set(tweak(stored))) }
                } else {
                    state.tweaks.removeValue(forKey: change.id)
                    if Self.isFlag(change.id) { state.flagGeneration += 1 } else { posts.append(.deleted(change.id)) }
                }
            }
            state.sequence = last.sequence
            return posts
        }
    }

    private func recordSuccess() {
        state.withLock { state in
            state.lastError = nil
            state.consecutiveFailures = 0
        }
    }

    private func recordFailure(_ error: any Error) {
        state.withLock { state in
            state.lastError = error
            state.consecutiveFailures += 1
        }
    }

    /// Sleeps for the backoff the failures so far call for; `false` when cancelled.
    private func backOff() async -> Bool {
        let failures = max(1, state.withLock { $0.consecutiveFailures })
        var delay = initialBackoff
        for _ in 1..<min(failures, 40) where delay < maximumBackoff {
            delay = delay * 2
        }
        do {
            try await sleep(min(delay, maximumBackoff))
            return true
        } catch {
            return false
        }
    }
}
