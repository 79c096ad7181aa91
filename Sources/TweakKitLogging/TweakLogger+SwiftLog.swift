public import Logging
public import TweakKit

extension TweakLogger {
    /// A TweakKit logger that writes to a swift-log `Logger`, at the logger's level.
    ///
    /// ```swift
    /// var logger = Logger(label: "com.example.tweaks")
    /// logger.logLevel = .debug
    /// let manager = TweakManager(tweakProviders: providers, logger: TweakLogger(logger))
    /// ```
    public init(_ logger: Logger) {
        self.init(level: Level(logger.logLevel)) { level, message in
            logger.log(level: Logger.Level(level), "\(message)")
        }
    }
}

extension TweakLogger.Level {
    init(_ level: Logger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension Logger.Level {
    init(_ level: TweakLogger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
