import Foundation
import Testing
import JustTweak

/// `logClosure`, `LogLevel` and `LogClosure`, as JustTweak spells them.
@Suite("Logging")
struct LoggingTests {
    @Test("LogLevel has JustTweak's cases and raw values")
    func levels() {
        #expect(LogLevel.error.rawValue == 0)
        #expect(LogLevel.debug.rawValue == 1)
        #expect(LogLevel.verbose.rawValue == 2)
    }

    @Test("the manager's logClosure is set on every provider")
    func propagates() {
        let local = LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))
        let userDefaults = UserDefaultsTweakProvider(userDefaults: makeUserDefaults())
        let tweakManager = TweakManager(tweakProviders: [userDefaults, local])
        #expect(tweakManager.logClosure == nil)
        let log = LogRecorder()
        let closure: LogClosure = log.closure
        tweakManager.logClosure = closure
        #expect(tweakManager.logClosure != nil)
        #expect(local.logClosure != nil)
        #expect(userDefaults.logClosure != nil)
    }

    @Test("a failed write is logged at .error, never thrown")
    func failedWrite() {
        let log = LogRecorder()
        // No mutable provider: every write fails.
        let tweakManager = TweakManager(tweakProviders: [LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.logClosure = log.closure
        tweakManager.set(true, feature: "f", variable: "v")
        #expect(log.levels == [.error])
        #expect(log.messages.contains { $0.contains("f.v") })
        tweakManager.deleteValue(feature: "f", variable: "v")
        #expect(log.levels == [.error, .error])
    }

    @Test("with a logClosure set, lookups log as JustTweak's did: .debug when resolved, .verbose per provider missed")
    func lookupLogs() {
        let log = LogRecorder()
        let tweakManager = TweakManager(tweakProviders: [EphemeralTweakProvider(), LocalTweakProvider(jsonURL: resourceURL("Tweaks_low"))])
        tweakManager.logClosure = log.closure
        _ = try? tweakManager.tweakWith(feature: "texts", variable: "greeting")
        #expect(log.levels == [.verbose, .debug])
        _ = try? tweakManager.tweakWith(feature: "texts", variable: "missing")
        #expect(log.levels == [.verbose, .debug, .verbose, .verbose, .verbose])
        #expect(log.messages.last?.contains("missing") == true)
    }
}
