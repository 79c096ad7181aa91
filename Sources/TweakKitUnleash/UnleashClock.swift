import Foundation

/// The wall clock, read when a context has no `currentTime`.
enum UnleashClock {
    static func secondsSince1970() -> Double {
        Date().timeIntervalSince1970
    }
}
