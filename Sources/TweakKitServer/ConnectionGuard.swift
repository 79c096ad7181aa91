import NIOCore
import NIOHTTPTypes
import Synchronization

/// The editor's connections, shared by all of them: at most ``limit`` are open at once. A
/// connection beyond it closes the longest-idle one (no request in progress), or is closed itself
/// when every open connection is busy, so idle or half-open sockets can never use up the
/// process's file descriptors and stop the editor answering.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        var busy: Bool
        var since: ContinuousClock.Instant
    }

    /// The most connections open at once.
    let limit: Int
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The connections open now.
    var count: Int { entries.withLock { $0.count } }

    /// Registers `channel`; returns `false` when it must be closed (the limit is reached and every
    /// other connection is busy). Closes the longest-idle connection to make room.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted): (Bool, (any Channel)?) = entries.withLock { entries in
            var evicted: (any Channel)?
            if entries.count >= limit {
                guard let oldest = entries.filter({ !$0.value.busy }).min(by: { $0.value.since < $1.value.since }) else {
                    return (false, nil)
                }
                entries.removeValue(forKey: oldest.key)
                evicted = oldest.value.channel
            }
            entries[ObjectIdentifier(channel)] = Entry(channel: channel, busy: false, since: .now)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    /// Marks `channel` as serving a request (not to be evicted) or idle again.
    func setBusy(_ channel: any Channel, _ busy: Bool) {
        entries.withLock { entries in
            entries[ObjectIdentifier(channel)]?.busy = busy
            entries[ObjectIdentifier(channel)]?.since = .now
        }
    }

    func remove(_ channel: any Channel) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// One connection's guard: registers it with the ``ConnectionRegistry``, and closes it when a
/// request is not complete within `readTimeout` of its first byte: a head sent slowly or never
/// finished, or a body sent slowly or never finished. Idle connections (no request begun) are
/// closed by the server's idle timeout.
///
/// The HTTP decoder sends nothing on until a head is complete, so the guard puts a
/// ``RequestStartWatcher`` at the front of the pipeline to see a request's first raw bytes.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private let readTimeout: TimeAmount
    private var registered = false
    private var readDeadline: Scheduled<Void>?
    /// Whether a request has begun (bytes of it arrived) and has not been read in full yet.
    private var requestInProgress = false

    init(registry: ConnectionRegistry, readTimeout: TimeAmount) {
        self.registry = registry
        self.readTimeout = readTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let watcher = RequestStartWatcher { [weak self] channel in self?.requestBytesArrived(channel) }
        try? context.pipeline.syncOperations.addHandler(watcher, position: .first)
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
        registry.remove(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            registry.setBusy(context.channel, true)
            // A pipelined request's bytes came with the previous one's: its clock starts here.
            startRequest(context.channel)
        case .body:
            break
        case .end:
            cancelDeadline()
            requestInProgress = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            registry.setBusy(context.channel, false)
        }
        context.write(data, promise: promise)
    }

    /// Raw bytes arrived (on the channel's event loop): the first of a request starts its clock.
    private func requestBytesArrived(_ channel: any Channel) {
        startRequest(channel)
    }

    private func startRequest(_ channel: any Channel) {
        guard !requestInProgress else { return }
        requestInProgress = true
        cancelDeadline()
        readDeadline = channel.eventLoop.scheduleTask(in: readTimeout) { channel.close(promise: nil) }
    }

    private func register(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        if !registry.admit(context.channel) {
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        readDeadline?.cancel()
        readDeadline = nil
    }
}

/// Sits before the HTTP decoder and tells the ``ConnectionGuard`` whenever raw bytes arrive, so
/// a request head sent slowly is timed from its first byte rather than left to the idle timeout.
final class RequestStartWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let onBytes: (any Channel) -> Void

    init(onBytes: @escaping (any Channel) -> Void) {
        self.onBytes = onBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if unwrapInboundIn(data).readableBytes > 0 { onBytes(context.channel) }
        context.fireChannelRead(data)
    }
}
