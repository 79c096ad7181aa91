import Foundation
import Synchronization
import TweakKit

/// Following replicas: a snapshot, then the change stream from its sequence; the next replica on failure.
extension ReplicaTweakProvider {
    /// Why a stream stopped being followed.
    enum StreamEnd {
        /// The replica failed or closed: try the next one.
        case failed
        /// The stream cannot be followed change by change (a gap, or `resync`): read a snapshot.
        case needsSnapshot
    }

    /// Follows until cancelled: one replica at a time, resuming from the last change applied.
    func follow() async {
        var delay = configuration.retryDelay
        var failuresInRound = 0
        var needsSnapshot = true
        while !Task.isCancelled {
            let replicas = configuration.replicas
            guard !replicas.isEmpty else {
                record(RemoteError(.invalidPayload, "\(name): no replica to follow"))
                firstSnapshot.open()
                return
            }
            let index = state.withLock { $0.replicaIndex } % replicas.count
            let replica = replicas[index]
            var failed = false
            if needsSnapshot {
                do {
                    needsSnapshot = try await readSnapshot(from: replica) == false
                    failed = needsSnapshot
                } catch let error as RemoteError {
                    record(error)
                    failed = true
                } catch {
                    record(RemoteError(.network, "\(name): \(replica.absoluteString)'s snapshot cannot be read: \(error)"))
                    failed = true
                }
                firstSnapshot.open()
            }
            if !failed {
                switch await followStream(of: replica) {
                case .failed?: failed = true
                case .needsSnapshot?: needsSnapshot = true
                case nil: failed = true
                }
            }
            // A replica that served a stream and then failed starts the waits over.
            let wasConnected = state.withLock { state in
                defer { state.connectedReplica = nil }
                return state.connectedReplica != nil
            }
            if wasConnected {
                delay = configuration.retryDelay
                failuresInRound = 0
            }
            guard failed else {
                delay = configuration.retryDelay
                failuresInRound = 0
                continue
            }
            // The next replica; after a whole round of failures, wait longer each round.
            state.withLock { $0.replicaIndex = index + 1 }
            failuresInRound += 1
            if failuresInRound >= replicas.count {
                failuresInRound = 0
                delay = min(delay * 2, configuration.maximumRetryDelay)
            }
            try? await sleep(failuresInRound == 0 ? delay : configuration.retryDelay)
        }
    }

    /// Reads `replica`'s snapshot and serves it, unless it is older than the values in service
    /// (`false`: that replica is behind; another is tried).
    private func readSnapshot(from replica: URL) async throws -> Bool {
        var request = RemoteHTTPRequest(
            url: replica.appending(path: "api/replica"), timeout: configuration.requestTimeout,
            maximumBodySize: configuration.maximumSnapshotSize)
        addHeaders(to: &request)
        let response = try await transport.send(request)
        guard response.status == 200 else {
            throw RemoteError(.httpStatus(response.status), "\(name): \(replica.absoluteString) answered \(response.status) for its snapshot")
        }
        let snapshot = try ReplicaWire.snapshot(response.body, source: "\(replica.absoluteString)/api/replica")
        guard serve(snapshot) else {
            record(RemoteError(.invalidPayload, "\(name): \(replica.absoluteString) is behind (its snapshot is at \(snapshot.sequence)); trying another"))
            return false
        }
        return true
    }

    /// Follows `replica`'s change stream from the sequence in service; `nil` when it cannot connect.
    private func followStream(of replica: URL) async -> StreamEnd? {
        var request = RemoteHTTPRequest(url: replica.appending(path: "api/events"))
        addHeaders(to: &request)
        request.headers["Accept"] = "text/event-stream"
        if let sequence { request.headers["Last-Event-ID"] = String(sequence) }
        let response: RemoteHTTPStreamingResponse
        do {
            response = try await transport.stream(request)
        } catch {
            record(RemoteError(.network, "\(name): \(replica.absoluteString)'s change stream cannot be reached: \(error)"))
            return nil
        }
        guard response.status == 200 else {
            record(RemoteError(.httpStatus(response.status), "\(name): \(replica.absoluteString)'s change stream answered \(response.status)"))
            return nil
        }
        state.withLock {
            $0.connectedReplica = replica
            $0.lastError = nil
        }
        var parser = ServerSentEventParser(maximumEventSize: configuration.maximumEventSize)
        do {
            for try await chunk in response.body {
                for event in try parser.feed(chunk) {
                    if let end = handle(event, from: replica) { return end }
                }
            }
            logger.log(.info, "\(name): \(replica.absoluteString)'s change stream ended")
        } catch {
            record(RemoteError(.network, "\(name): \(replica.absoluteString)'s change stream failed: \(error)"))
        }
        return .failed
    }

    /// Applies one event; a non-`nil` answer stops following this stream.
    private func handle(_ event: ServerSentEventParser.Event, from replica: URL) -> StreamEnd? {
        switch event.name {
        case "change", "flag":
            let change: StoredTweakChange
            do {
                change = try ReplicaWire.change(event.data, source: replica.absoluteString)
            } catch {
                record(error)
                return .failed
            }
            return apply(change) ? nil : .needsSnapshot
        case "resync":
            return .needsSnapshot
        default:
            // `sequence` (sent to a client that gave no id) and anything newer: nothing to apply.
            return nil
        }
    }

    private func addHeaders(to request: inout RemoteHTTPRequest) {
        for (field, value) in configuration.headers { request.headers[field] = value }
    }

    func record(_ error: RemoteError) {
        logger.log(.warning, error.message)
        state.withLock { $0.lastError = error }
    }
}

/// Serving what the replicas send.
extension ReplicaTweakProvider {
    /// Serves `snapshot` unless it is older than the values in service; tells observers what
    /// changed. The kept changes restart after it (the changes between are not known one by one).
    func serve(_ snapshot: SequencedTweakSnapshot) -> Bool {
        var posts: [TweakChange] = []
        let served = state.withLock { state -> Bool in
            if let current = state.sequence, snapshot.sequence < current { return false }
            var values: [TweakID: Stored] = [:]
            values.reserveCapacity(snapshot.entries.count)
            for entry in snapshot.entries {
                values[entry.id] = Stored(value: entry.value, version: entry.version)
            }
            var flagsChanged = false
            for (id, stored) in values where state.values[id]?.version != stored.version || state.values[id]?.value != stored.value {
                if Self.isFlag(id) { flagsChanged = true } else { posts.append(.set(tweak(id, stored))) }
            }
            for id in state.values.keys where values[id] == nil {
                if Self.isFlag(id) { flagsChanged = true } else { posts.append(.deleted(id)) }
            }
            if flagsChanged { state.flagGeneration += 1 }
            state.values = values
            state.sequence = snapshot.sequence
            state.kept.removeAll()
            state.lastError = nil
            return true
        }
        guard served else { return false }
        post(posts)
        sequenceSignals.signal()
        return true
    }

    /// Applies the change right after the sequence in service (`true`); skips one already applied
    /// (`true`); refuses one after a gap (`false`: a snapshot is needed).
    func apply(_ change: StoredTweakChange) -> Bool {
        var post: TweakChange?
        let outcome = state.withLock { state -> Bool? in
            guard let current = state.sequence else { return false }
            if change.sequence <= current { return nil }
            guard change.sequence == current + 1 else { return false }
            let id = change.id
            if let value = change.new {
                let stored = Stored(value: value, version: change.version)
                state.values[id] = stored
                if !Self.isFlag(id) { post = .set(tweak(id, stored)) }
            } else if state.values.removeValue(forKey: id) != nil, !Self.isFlag(id) {
                post = .deleted(id)
            }
            if Self.isFlag(id) { state.flagGeneration += 1 }
            state.sequence = change.sequence
            state.kept.append(change)
            return true
        }
        guard let outcome else { return true }
        guard outcome else { return false }
        if let post { changeNotifier.post(post, from: self) }
        sequenceSignals.signal()
        return true
    }

    private func post(_ changes: [TweakChange]) {
        if changes.count > 100 {
            changeNotifier.post(.reloaded, from: self)
            return
        }
        for change in changes { changeNotifier.post(change, from: self) }
    }
}
