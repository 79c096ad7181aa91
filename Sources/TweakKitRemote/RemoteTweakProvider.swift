public import Foundation
import Synchronization
public import TweakKit

/// Tweaks fetched over HTTP, served from the last good payload so a lookup never waits on the
/// network.
///
/// - At start the last-known-good payload is read from ``RemoteConfiguration/cacheDirectory``;
///   lookups answer from it (status ``RemoteStatus/stale``) before the network does, and fall
///   through to the providers below (the bundled defaults) while there is nothing at all.
/// - Fetches are conditional (ETag / If-None-Match, Last-Modified / If-Modified-Since), polled at
///   ``RemoteConfiguration/pollInterval`` with jitter, backing off exponentially after failures.
/// - A ``RemoteConfiguration/streamURL`` is followed as server-sent events: an event whose data is a
///   payload is applied at once; an event named `refresh` (or without data) triggers a fetch. A
///   format that is a `TweakStreamEventHandling` (LaunchDarkly's) reads the events itself instead:
///   each changes the payload in service (a patch), asks for a fetch, or is ignored, and the payload
///   it makes is served and kept as last-known-good like a fetched one.
/// - Garbage, truncated, wrongly typed or oversized payloads, HTTP errors and timeouts never
///   replace the last good payload; ``status`` and ``lastError`` say what happened.
/// - Updates apply in the order they were asked for, never older over newer: each poll takes a
///   sequence number when its request is sent, each pushed payload when it arrives, and a payload
///   whose number is below the one in service is dropped (a slow poll answering after a push or a
///   later poll was applied). ETags are opaque and cannot be ordered, so the order is the
///   provider's own; a pushed payload carries no ETag, so the next poll after it is unconditional.
/// - The last-known-good payload and its validators are kept in one file, replaced atomically
///   and flushed, so after a crash they always belong together.
///
/// - Requests go through a ``RemoteHTTPTransport``: AsyncHTTPClient when the package trait
///   `Remote` is on, ``URLSessionTransport`` when it is off (then TweakKitRemote needs no other
///   package); `transport:` picks either, or one of the app's own.
///
/// ```swift
/// let remote = RemoteTweakProvider(configuration: configuration)
/// let manager = TweakManager(tweakProviders: [overrides, remote, bundledDefaults])
/// remote.start()                                             // or run RemoteTweakService in a ServiceGroup
/// _ = await remote.waitUntilReady(timeout: .seconds(2))      // optional: await the first fetch
/// ```
public final class RemoteTweakProvider: DocumentBackedTweakProvider {
    /// Where and how the provider fetches.
    public let configuration: RemoteConfiguration
    /// The source shown on the provider's tweaks: ``RemoteConfiguration/name``.
    public var name: String { configuration.name }

    private struct State {
        var payload: (any TweakDocument)?
        var payloadData: Data?
        var etag: String?
        var lastModified: String?
        var status = RemoteStatus.notReady
        var lastError: RemoteError?
        /// When the payload in service was last confirmed good.
        var lastGoodPayloadDate: Date?
        var consecutiveFailures = 0
        var fetchAttempts = 0
        var statusObservers: [Int: AsyncStream<RemoteStatus>.Continuation] = [:]
        var nextObserverID = 0
        /// The sequence number the next poll or push takes.
        var nextSequence: UInt64 = 1
        /// The sequence number of the payload in service (0: from disk, or none).
        var appliedSequence: UInt64 = 0
    }

    /// The sequence number of the last payload written to the cache directory, and the lock that
    /// keeps two writers from putting an older one over a newer one.
    private let savedSequence = Mutex<UInt64>(0)

    private let state = Mutex(State())
    private let firstAttempt = FirstAttemptGate()
    /// Tells the manager when a new payload is in service.
    public let changeNotifier = TweakChangeNotifier()
    private let transport: any RemoteHTTPTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let logger: TweakLogger
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A provider that fetches through `transport`.
    ///
    /// ```swift
    /// let remote = RemoteTweakProvider(configuration: configuration, transport: URLSessionTransport())
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: where and how the provider fetches.
    ///   - transport: how requests are sent: ``URLSessionTransport``, `AsyncHTTPClientTransport`
    ///     (trait `Remote`), or an app's own.
    ///   - logger: where the provider logs fetches and failures; off by default.
    ///   - sleep: how the provider waits between polls and reconnects; inject one in tests so they
    ///     need not wait.
    public init(
        configuration: RemoteConfiguration,
        transport: any RemoteHTTPTransport,
        logger: TweakLogger = .disabled,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.sleep = sleep
        if let directory = configuration.cacheDirectory {
            do {
                guard let saved = try LastKnownGood.load(from: directory) else { return }
                let payload = try RemotePayload.parse(saved.payload, configuration: configuration, source: configuration.name)
                state.withLock {
                    $0.payload = payload
                    $0.payloadData = saved.payload
                    $0.etag = saved.etag
                    $0.lastModified = saved.lastModified
                    $0.status = .stale
                    $0.lastGoodPayloadDate = LastKnownGood.modificationDate(in: directory)
                }
                logger.log(.info, "\(configuration.name): serving the last-known-good payload from \(directory.path)")
            } catch {
                logger.log(.warning, "\(configuration.name): the last-known-good payload in \(directory.path) is unusable: \(error)")
            }
        }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    // MARK: - Status

    /// Where the provider stands: not ready, ready, stale or in error; see ``statusUpdates()``.
    public var status: RemoteStatus { state.withLock { $0.status } }
    /// The last fetch's error; `nil` after a success.
    public var lastError: RemoteError? { state.withLock { $0.lastError } }

    /// When the payload in service was last confirmed good: fetched, or answered not modified; for
    /// a payload read back from the cache directory, when it was kept. `nil` when there is none.
    ///
    /// ```swift
    /// let age = remote.lastGoodPayloadDate.map { Date().timeIntervalSince($0) }   // seconds, for a health check
    /// ```
    public var lastGoodPayloadDate: Date? { state.withLock { $0.lastGoodPayloadDate } }

    /// The status now, then every change of it.
    public func statusUpdates() -> AsyncStream<RemoteStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemoteStatus.self, bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.statusObservers[state.nextObserverID] = continuation
            continuation.yield(state.status)
            return state.nextObserverID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.statusObservers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits until a fetch attempt has finished (successfully or not) or `timeout` passes, and
    /// returns the status: start-up that awaits the first fetch, with a bound.
    @discardableResult
    public func waitUntilReady(timeout: Duration) async -> RemoteStatus {
        let alreadyTried = state.withLock { $0.fetchAttempts > 0 || $0.status == .ready }
        guard !alreadyTried else { return status }
        await firstAttempt.wait(timeout: timeout, sleep: sleep)
        return status
    }

    // MARK: - Running

    /// Starts polling (and streaming) in the background; the first fetch happens at once.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.run() }
        }
    }

    /// Stops polling and streaming.
    public func stop() {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
    }

    /// Polls and streams until the calling task is cancelled (``RemoteTweakService`` runs this).
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.pollLoop() }
            if configuration.streamURL != nil {
                group.addTask { await self.streamLoop() }
            }
            await group.waitForAll()
        }
    }

    private func pollLoop() async {
        await refreshReportingErrors()
        guard configuration.pollInterval != nil else { return }
        while !Task.isCancelled {
            do {
                try await sleep(nextPollDelay())
            } catch {
                return
            }
            await refreshReportingErrors()
        }
    }

    /// The wait before the next poll: the interval with jitter, or the backoff after failures.
    func nextPollDelay() -> Duration {
        let failures = state.withLock { $0.consecutiveFailures }
        if failures > 0 { return backoff(afterFailures: failures) }
        let interval = configuration.pollInterval ?? .seconds(60)
        let jitter = max(0, min(configuration.jitter, 1))
        return interval * Double.random(in: (1 - jitter)...(1 + jitter))
    }

    /// `initialBackoff × 2^(failures − 1)`, at most `maximumBackoff`.
    func backoff(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = configuration.initialBackoff
        for _ in 1..<min(failures, 40) {
            delay = delay * 2
            if delay >= configuration.maximumBackoff { return configuration.maximumBackoff }
        }
        return min(delay, configuration.maximumBackoff)
    }

    /// Fetches once; a failure is already logged and recorded by ``recordFailure(_:)``.
    private func refreshReportingErrors() async {
        _ = try? await refresh()
    }

    // MARK: - Fetching

    /// Fetches once now (conditionally). Returns whether the tweaks changed.
    @discardableResult
    public func refresh() async throws(RemoteError) -> Bool {
        do {
            let changed = try await fetch()
            recordSuccess()
            report(changed ? .updated : .notModified)
            return changed
        } catch {
            recordFailure(error)
            report(.failed(error))
            throw error
        }
    }

    private func fetch() async throws(RemoteError) -> Bool {
        var request = RemoteHTTPRequest(
            url: configuration.url, timeout: configuration.requestTimeout, maximumBodySize: configuration.maximumPayloadSize)
        try await addHeaders(to: &request)
        let (etag, lastModified) = state.withLock { ($0.etag, $0.lastModified) }
        if let etag { request.headers["If-None-Match"] = etag }
        if let lastModified { request.headers["If-Modified-Since"] = lastModified }
        let sequence = takeSequenceNumber()
        let response: RemoteHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as RemoteHTTPTransportError {
            // An error status is reported as such, however large its body.
            if case .tooLarge(let status) = error.kind, status != 200, status != 304 { throw statusError(status) }
            throw RemoteError(transportError: error, source: name, limit: "the payload is larger than \(configuration.maximumPayloadSize) bytes")
        } catch {
            throw RemoteError(.network, "\(name): \(error)")
        }
        if response.status == 304 { return false }
        guard response.status == 200 else { throw statusError(response.status) }
        return try apply(response.body, etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"], sequence: sequence) == .changed
    }

    private func statusError(_ status: Int) -> RemoteError {
        RemoteError(.httpStatus(status), "\(name): the server answered \(status)")
    }

    /// The number that orders an update: taken when a poll's request is sent or a push arrives.
    private func takeSequenceNumber() -> UInt64 {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
    }

    /// The configured headers, then the header provider's (never logged).
    private func addHeaders(to request: inout RemoteHTTPRequest) async throws(RemoteError) {
        for (field, value) in configuration.headers { request.headers[field] = value }
        guard let headerProvider = configuration.headerProvider else { return }
        let extra: [String: String]
        do {
            extra = try await headerProvider()
        } catch {
            throw RemoteError(.network, "\(name): the header provider failed: \(error)")
        }
        for (field, value) in extra { request.headers[field] = value }
    }

    /// What came of ``apply(_:etag:lastModified:sequence:basedOn:)``.
    private enum Applied {
        /// A new payload is in service.
        case changed
        /// The same payload (perhaps with new validators).
        case unchanged
        /// Dropped: an update newer than this one, or than the payload it was made from, is in service.
        case dropped
    }

    /// Parses and installs a payload; a bad one changes nothing, nor does one older than the payload
    /// in service (`sequence` below ``State/appliedSequence``), nor one made from a payload that is
    /// no longer in service (`basedOn`, the sequence number of the payload a stream event patched).
    private func apply(_ data: Data, etag: String?, lastModified: String?, sequence: UInt64, basedOn: UInt64? = nil) throws(RemoteError) -> Applied {
        // The same bytes again (a server without validators answers 200 to every poll): nothing
        // to parse, and nothing to write unless the validators changed.
        let (sameBytes, sameValidators) = state.withLock { state in
            (state.payload != nil && state.payloadData == data, state.etag == etag && state.lastModified == lastModified)
        }
        if sameBytes && sameValidators { return .unchanged }
        var payload: (any TweakDocument)?
        if !sameBytes { payload = try RemotePayload.parse(data, configuration: configuration, source: name) }
        let installed = state.withLock { state in
            // Checked where it is installed: another update may have been applied while this one was parsed.
            guard sequence > state.appliedSequence, basedOn.map({ $0 == state.appliedSequence }) ?? true else { return false }
            state.appliedSequence = sequence
            if let payload {
                state.payload = payload
                state.payloadData = data
            }
            state.etag = etag
            state.lastModified = lastModified
            return true
        }
        guard installed else {
            logger.log(.info, "\(name): dropped a payload asked for before the one in service")
            return .dropped
        }
        if let directory = configuration.cacheDirectory {
            save(LastKnownGood(payload: data, etag: etag, lastModified: lastModified), to: directory, sequence: sequence)
        }
        guard !sameBytes else { return .unchanged }
        logger.log(.info, "\(name): new payload applied")
        changeNotifier.post(.reloaded, from: self)
        return .changed
    }

    /// Keeps `record` on disk unless a newer one was kept meanwhile.
    private func save(_ record: LastKnownGood, to directory: URL, sequence: UInt64) {
        let failure: (any Error)? = savedSequence.withLock { saved in
            guard sequence > saved else { return nil }
            do {
                try record.save(to: directory)
                saved = sequence
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            logger.log(.warning, "\(name): cannot keep the payload in \(directory.path): \(failure)")
        }
    }

    /// Tells the configuration's fetch observer what came of a fetch.
    private func report(_ outcome: RemoteFetchEvent.Outcome) {
        guard let observer = configuration.fetchObserver else { return }
        let (status, date) = state.withLock { ($0.status, $0.lastGoodPayloadDate) }
        observer(RemoteFetchEvent(source: name, outcome: outcome, status: status, lastGoodPayloadDate: date))
    }

    private func recordSuccess() {
        let observers = state.withLock { state in
            state.lastGoodPayloadDate = state.payload == nil ? nil : Date()
            state.consecutiveFailures = 0
            state.lastError = nil
            state.fetchAttempts += 1
            return update(&state, to: .ready)
        }
        for observer in observers { observer.yield(.ready) }
        firstAttempt.open()
    }

    private func recordFailure(_ error: RemoteError) {
        logger.log(.warning, "\(error); serving what it had")
        let (observers, status) = state.withLock { state in
            state.consecutiveFailures += 1
            state.lastError = error
            state.fetchAttempts += 1
            let status: RemoteStatus = state.payload == nil ? .error : .stale
            return (update(&state, to: status), status)
        }
        for observer in observers { observer.yield(status) }
        firstAttempt.open()
    }

    private func update(_ state: inout State, to status: RemoteStatus) -> [AsyncStream<RemoteStatus>.Continuation] {
        guard state.status != status else { return [] }
        state.status = status
        return Array(state.statusObservers.values)
    }

    // MARK: - Streaming

    private func streamLoop() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await streamOnce()
                failures = 0
            } catch {
                failures += 1
                logger.log(.warning, "\(name): event stream failed: \(error)")
            }
            guard !Task.isCancelled else { return }
            do {
                try await sleep(backoff(afterFailures: max(failures, 1)))
            } catch {
                return
            }
        }
    }

    private func streamOnce() async throws {
        guard let url = configuration.streamURL else { return }
        var request = RemoteHTTPRequest(url: url)
        try await addHeaders(to: &request)
        request.headers["Accept"] = "text/event-stream"
        let response = try await transport.stream(request)
        guard response.status == 200 else {
            throw RemoteError(.httpStatus(response.status), "\(name): the event stream answered \(response.status)")
        }
        // A pushed payload may be as large as a fetched one, with room for its `data:` prefixes.
        var parser = ServerSentEventParser(maximumEventSize: configuration.maximumPayloadSize + 64 * 1024)
        for try await chunk in response.body {
            for event in try parser.feed(chunk) {
                await handle(event)
            }
        }
    }

    private func handle(_ event: ServerSentEventParser.Event) async {
        if let handler = streamEventHandler {
            await handle(TweakStreamEvent(name: event.name, data: event.data, id: event.id), with: handler)
            return
        }
        if event.name == "refresh" || event.data.isEmpty {
            await refreshReportingErrors()
            return
        }
        guard event.data.utf8.count <= configuration.maximumPayloadSize else {
            recordFailure(RemoteError(.tooLarge, "\(name): a pushed payload is larger than \(configuration.maximumPayloadSize) bytes"))
            return
        }
        let sequence = takeSequenceNumber()
        do {
            _ = try apply(Data(event.data.utf8), etag: nil, lastModified: nil, sequence: sequence)
            recordSuccess()
        } catch {
            recordFailure(error)
        }
    }

    /// The first of the formats that reads stream events itself, if any.
    private var streamEventHandler: (any TweakStreamEventHandling)? {
        configuration.documentFormats.lazy.compactMap { $0 as? any TweakStreamEventHandling }.first
    }

    /// An event read by the format against the payload in service. A poll applied while the event
    /// was read makes it read again against the new payload (a few times at most: polls are rare
    /// next to that), so a patch never puts back what a newer payload replaced.
    private func handle(_ event: TweakStreamEvent, with handler: any TweakStreamEventHandling) async {
        let limit = configuration.maximumPayloadSize
        guard event.data.utf8.count <= limit else {
            recordFailure(RemoteError(.tooLarge, "\(name): a \(event.name) event is larger than \(limit) bytes"))
            return
        }
        for _ in 0..<4 {
            let (current, basedOn) = state.withLock { ($0.payloadData, $0.appliedSequence) }
            let action: TweakStreamEventAction
            do {
                action = try handler.handle(event, current: current)
            } catch {
                recordFailure(RemoteError(.invalidPayload, "\(name): the stream's \(event.name) event: \(error)"))
                return
            }
            switch action {
            case .refetch:
                await refreshReportingErrors()
                return
            case .ignore(let reason):
                logger.log(.debug, "\(name): \(event.name) event ignored: \(reason)")
                return
            case .replace(let data):
                guard data.count <= limit else {
                    recordFailure(RemoteError(.tooLarge, "\(name): the payload after a \(event.name) event is larger than \(limit) bytes"))
                    return
                }
                do {
                    if try apply(data, etag: nil, lastModified: nil, sequence: takeSequenceNumber(), basedOn: basedOn) == .dropped { continue }
                    recordSuccess()
                } catch {
                    recordFailure(error)
                }
                return
            }
        }
        logger.log(.warning, "\(name): a \(event.name) event was dropped: the payload kept changing while it was applied")
    }

    // MARK: - DocumentBackedTweakProvider

    /// The document in service: the last good payload, or `nil` before the first one.
    public var currentDocument: (any TweakDocument)? { state.withLock { $0.payload } }

    /// The document in service (``currentDocument``).
    public var document: (any TweakDocument)? { currentDocument }
}

/// A remote source evaluates at a bounded cost when every format it reads does.
extension RemoteTweakProvider: BoundedEvaluationProvider {
    package var evaluationIsBounded: Bool {
        configuration.documentFormats.allSatisfy { $0 is any BoundedEvaluationFormat }
    }
}
