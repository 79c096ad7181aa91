import Foundation
import Synchronization
import JustTweak

/// The URL of a JSON file in this target's Resources folder.
func resourceURL(_ name: String) -> URL {
    guard let url = Foundation.Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources") else {
        fatalError("missing test resource \(name).json")
    }
    return url
}

/// A fresh, empty UserDefaults suite for one test.
func makeUserDefaults() -> UserDefaults {
    let suite = "JustTweakCompatibilityTests.\(UUID().uuidString)"
    guard let defaults = UserDefaults(suiteName: suite) else { fatalError("cannot create UserDefaults suite \(suite)") }
    return defaults
}

/// Collects what a `LogClosure` receives.
final class LogRecorder: Sendable {
    private let entries = Mutex<[(String, LogLevel)]>([])

    var closure: LogClosure {
        { message, level in self.entries.withLock { $0.append((message, level)) } }
    }

    var messages: [String] { entries.withLock { $0.map(\.0) } }
    var levels: [LogLevel] { entries.withLock { $0.map(\.1) } }
}

/// Counts calls from `@Sendable` closures.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Keeps the last value a `@Sendable` closure saw.
final class Box<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)
    func set(_ value: Value) { stored.withLock { $0 = value } }
    var value: Value? { stored.withLock { $0 } }
}
