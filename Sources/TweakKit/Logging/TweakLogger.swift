/// Where TweakKit's diagnostics go. Off by default; costs one branch per call site when off,
/// and builds no message unless its level is on.
///
/// Route it to swift-log with the `TweakKitLogging` module:
///
/// ```swift
/// import Logging
/// import TweakKitLogging
/// let manager = TweakManager(tweakProviders: providers, logger: TweakLogger(Logger(label: "tweaks")))
/// ```
///
/// or to anything else with a closure:
///
/// ```swift
/// let logger = TweakLogger(level: .debug) { level, message in print("[\(level)] \(message)") }
/// ```
public struct TweakLogger: Sendable {
    /// Severity, in swift-log's order.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// The levels, least severe first; TweakKit logs failures at `error`.
        case trace, debug, info, notice, warning, error, critical

        /// Less severe levels first, `trace` lowest.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name: `trace`, `debug`, … `critical`.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }
    }

    @usableFromInline let minimumLevel: Level
    @usableFromInline let sink: (@Sendable (Level, String) -> Void)?

    /// A logger that drops everything.
    public static let disabled = TweakLogger(minimumLevel: .critical, sink: nil)

    /// Sends messages at `level` or above to `sink`.
    public init(level: Level, sink: @escaping @Sendable (Level, String) -> Void) {
        self.init(minimumLevel: level, sink: sink)
    }

    private init(minimumLevel: Level, sink: (@Sendable (Level, String) -> Void)?) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// Whether messages at `level` are delivered.
    @inlinable
    public func isEnabled(_ level: Level) -> Bool {
        sink != nil && level >= minimumLevel
    }

    /// Delivers `message` if `level` is on; the message is not built otherwise.
    @inlinable
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard let sink, level >= minimumLevel else { return }
        sink(level, message())
    }
}
