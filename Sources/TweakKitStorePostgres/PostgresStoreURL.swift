import Foundation
public import PostgresNIO
import NIOSSL
public import TweakKitStore

/// Where a PostgreSQL tweak store lives: `postgres://user:password@host:port/database`.
///
/// The password is optional, and so is the port (5432). Percent-escapes are decoded in every part,
/// so a password holding `@` is written `%40`. `?sslmode=disable`, `prefer` (the default) or
/// `require` chooses TLS.
///
/// ```swift
/// let url = try PostgresStoreURL("postgres://tweaks:secret@db.internal:5432/tweaks")
/// url.host       // "db.internal"
/// url.database   // "tweaks"
/// ```
public struct PostgresStoreURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// `disable`, `prefer` or `require`.
    public var sslMode: String

    /// Parses a `postgres://` (or `postgresql://`) URL.
    ///
    /// - Throws: `SharedTweakStoreError.invalidURL(_:)` saying what is missing or wrong.
    public init(_ text: String) throws(SharedTweakStoreError) {
        guard let components = URLComponents(string: text) else {
            throw .invalidURL("'\(Self.redacted(text))' is not a URL; expected postgres://user:password@host:port/database")
        }
        let shown = Self.redacted(text)
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL("'\(shown)' does not start with postgres://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidURL("'\(shown)' names no host; expected postgres://user:password@host:port/database")
        }
        guard let username = components.user?.removingPercentEncoding, !username.isEmpty else {
            throw .invalidURL("'\(shown)' names no user; expected postgres://user:password@host:port/database")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/"), let decoded = database.removingPercentEncoding else {
            throw .invalidURL("'\(shown)' names no database (one path component); expected postgres://user:password@host:port/database")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw .invalidURL("'\(shown)': port \(port) is outside 1…65535")
        }
        var sslMode = "prefer"
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw .invalidURL("'\(shown)': unknown parameter '\(item.name)'; only sslmode is understood")
            }
            guard let value = item.value, ["disable", "prefer", "require"].contains(value) else {
                throw .invalidURL("'\(shown)': sslmode must be disable, prefer or require")
            }
            sslMode = value
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password?.removingPercentEncoding
        self.database = decoded
        self.sslMode = sslMode
    }

    /// The URL with the password hidden, for logs and error messages.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    /// The client configuration this URL describes, giving up on a connection after 5 seconds.
    public var clientConfiguration: PostgresClient.Configuration {
        clientConfiguration(connectTimeout: .seconds(5))
    }

    /// The client configuration this URL describes, giving up on a connection (its handshake
    /// included) after `connectTimeout`.
    ///
    /// ```swift
    /// let client = PostgresClient(configuration: url.clientConfiguration(connectTimeout: .seconds(2)))
    /// ```
    public func clientConfiguration(connectTimeout: Duration) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: clientTLS
        )
        configuration.options.connectTimeout = connectTimeout
        return configuration
    }

    /// The single-connection configuration the change listener and the migration use.
    func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: try connectionTLS
        )
        configuration.options.connectTimeout = .nanoseconds(Self.nanoseconds(connectTimeout))
        return configuration
    }

    /// `duration` in nanoseconds, at least a millisecond, at most a day.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let day: Int64 = 86_400_000_000_000
        guard seconds < 86_400 else { return day }
        return min(day, max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch sslMode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
    }

    private var connectionTLS: PostgresConnection.Configuration.TLS {
        get throws {
            switch sslMode {
            case "disable": .disable
            case "require": try .require(.init(configuration: .makeClientConfiguration()))
            default: try .prefer(.init(configuration: .makeClientConfiguration()))
            }
        }
    }

    /// Hides anything between `:` and `@` in the authority, and the query (it may hold a
    /// `password=`), so a password never reaches a message.
    private static func redacted(_ text: String) -> String {
        if let query = text.firstIndex(of: "?") { return redacted(String(text[..<query])) + "?…" }
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://") else { return text }
        let authority = text[schemeEnd.upperBound..<at]
        guard let colon = authority.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
