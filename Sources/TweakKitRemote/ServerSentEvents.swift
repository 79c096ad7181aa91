/// Parses a `text/event-stream` (the server-sent events format) into events.
///
/// An event (its data lines and the line being read) larger than `maximumEventSize` is refused with
/// ``RemoteError/Kind/tooLarge``: a stream that never ends a line cannot grow the buffer without bound.
struct ServerSentEventParser {
    struct Event: Sendable, Equatable {
        var name: String
        var data: String
        var id: String?
    }

    private var buffer: [UInt8] = []
    private var name = ""
    private var dataLines: [String] = []
    private var id: String?
    /// The bytes of the data lines held for the event being read.
    private var dataSize = 0
    let maximumEventSize: Int

    init(maximumEventSize: Int = 1 << 20) {
        self.maximumEventSize = maximumEventSize
    }

    /// Feeds received bytes; returns the events they complete.
    ///
    /// - Throws: ``RemoteError`` (``RemoteError/Kind/tooLarge``) when an event outgrows
    ///   ``maximumEventSize``; the stream is to be dropped.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(RemoteError) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if buffer.count + dataSize >= maximumEventSize {
                throw RemoteError(.tooLarge, "an event of the stream is larger than \(maximumEventSize) bytes")
            }
            if byte == UInt8(ascii: "\n") {
                var line = buffer
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                buffer.removeAll(keepingCapacity: true)
                if let event = process(String(decoding: line, as: UTF8.self)) { events.append(event) }
            } else {
                buffer.append(byte)
            }
        }
        return events
    }

    private mutating func process(_ line: String) -> Event? {
        if line.isEmpty {
            defer {
                name = ""
                dataLines = []
                dataSize = 0
            }
            guard !dataLines.isEmpty || !name.isEmpty else { return nil }
            return Event(name: name.isEmpty ? "message" : name, data: dataLines.joined(separator: "\n"), id: id)
        }
        if line.hasPrefix(":") { return nil } // a comment, often a keep-alive
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data":
            dataLines.append(String(value))
            dataSize += value.utf8.count + 1
        case "id": id = String(value)
        default: break
        }
        return nil
    }
}
