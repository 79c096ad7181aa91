import Foundation
import Synchronization
import TweakKit

/// Following the event stream a bulk answer announces (OFREP's `eventStreams`, the protocol's
/// ADR-0008): a `refetchEvaluation` message asks for a new bulk evaluation, carrying the
/// message's `etag` and `lastModified` as `flagConfigEtag` and `flagConfigLastModified`.
///
/// ```swift
/// var configuration = OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// configuration.pollInterval = nil          // a server without event streams is asked once
/// let flags = OFREPTweakProvider(configuration: configuration)
/// flags.start()                             // follows `tweak serve`'s /ofrep/v1/events
/// ```
extension OFREPTweakProvider {
    /// Connects to `url` and handles its messages until it ends; returns whether it connected.
    func followEventStream(_ url: URL) async -> Bool {
        var request = RemoteHTTPRequest(url: url)
        for (field, value) in configuration.headers { request.headers[field] = value }
        request.headers["Accept"] = "text/event-stream"
        if let lastEventID = state.withLock({ $0.lastEventID }) { request.headers["Last-Event-ID"] = lastEventID }
        let response: RemoteHTTPStreamingResponse
        do {
            response = try await transport.stream(request)
        } catch {
            logger.log(.warning, "\(name): the event stream cannot be reached: \(error)")
            return false
        }
        guard response.status == 200 else {
            logger.log(.warning, "\(name): the event stream answered \(response.status)")
            return false
        }
        // Its messages are small JSON objects (at most 64 KB are read, below).
        var parser = ServerSentEventParser(maximumEventSize: 128 * 1024)
        do {
            for try await chunk in response.body {
                for event in try parser.feed(chunk) { handle(event) }
            }
        } catch {
            logger.log(.info, "\(name): the event stream ended: \(error)")
        }
        return true
    }

    /// A `refetchEvaluation` message queues one re-fetch (messages arriving meanwhile are merged
    /// into it); other types are ignored, as the protocol asks.
    private func handle(_ event: ServerSentEventParser.Event) {
        if let id = event.id { state.withLock { $0.lastEventID = String(id.prefix(256)) } }
        guard event.data.utf8.count <= 64 * 1024, case .object(let fields)? = try? OFREPWire.object(Data(event.data.utf8), source: name),
            fields["type"]?.stringValueIfString == "refetchEvaluation"
        else { return }
        var metadata: [URLQueryItem] = []
        if let etag = fields["etag"]?.stringValueIfString { metadata.append(URLQueryItem(name: "flagConfigEtag", value: etag)) }
        switch fields["lastModified"] {
        case .string(let text)?: metadata.append(URLQueryItem(name: "flagConfigLastModified", value: text))
        case .int(let seconds)?: metadata.append(URLQueryItem(name: "flagConfigLastModified", value: String(seconds)))
        default: break
        }
        state.withLock { $0.refetchMetadata = metadata }
        queueFetch()
    }
}
