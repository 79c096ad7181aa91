import Hummingbird
import HummingbirdCore
import NIOCore
import ServiceLifecycle

/// A `text/event-stream` answer (the editor's `/api/events`, OFREP's `/ofrep/v1/events`): a
/// `: connected` comment, then what `produce` yields, with a `: keep-alive` comment every 15
/// seconds so that proxies keep an idle connection open. It ends when the client leaves, when
/// `produce` returns, or when the server shuts down gracefully (an open page never holds up a stop).
/// `produce` yields whole events, such as `"id: 7\nevent: change\ndata: {…}\n\n"`.
func eventStreamResponse(_ produce: @escaping @Sendable (AsyncStream<String>.Continuation) async -> Void) -> Response {
    let body = ResponseBody { writer in
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let producer = Task {
            await cancelWhenGracefulShutdown {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await produce(continuation) }
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .seconds(15))
                            continuation.yield(": keep-alive\n\n")
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
            continuation.finish()
        }
        defer { producer.cancel() }
        try await writer.write(ByteBuffer(string: ": connected\n\n"))
        for await line in lines {
            try await writer.write(ByteBuffer(string: line))
        }
        try await writer.finish(nil)
    }
    return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
}
