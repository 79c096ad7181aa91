import Foundation
import Logging
import Testing
import TweakKit
import TweakKitLogging

/// Collects log messages from any thread.
final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}

/// A swift-log handler that records into a MessageLog.
struct RecordingHandler: LogHandler {
    let log: MessageLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        log.append("\(event.level): \(event.message)")
    }
}

@Suite("Logging")
struct LoggingTests {
    @Test("provider failures reach a swift-log Logger")
    func swiftLog() throws {
        let messages = MessageLog()
        var logger = Logger(label: "tweaks") { _ in RecordingHandler(log: messages) }
        logger.logLevel = .debug
        let failing = SilentProvider(name: "flaky")
        failing.fail(with: BrokenStore())
        let manager = TweakManager(tweakProviders: [failing], logger: TweakLogger(logger))
        _ = manager.isFeatureEnabled("x")
        #expect(messages.all.contains { $0.hasPrefix("error:") && $0.contains("flaky") && $0.contains("disk unplugged") })
        #expect(messages.all.contains { $0.hasPrefix("debug:") && $0.contains("rebuilt the tweak snapshot") })
    }

    @Test("a disabled level builds no message")
    func lazyMessages() {
        let built = SharedCounter()
        func expensive() -> String {
            built.increment()
            return "expensive"
        }
        let logger = TweakLogger(level: .error) { _, _ in }
        logger.log(.debug, expensive())
        TweakLogger.disabled.log(.critical, expensive())
        #expect(built.value == 0)
        logger.log(.error, expensive())
        #expect(built.value == 1)
    }
}
