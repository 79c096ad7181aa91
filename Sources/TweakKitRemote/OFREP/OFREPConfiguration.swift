public import Foundation
public import TweakKit

/// How an ``OFREPTweakProvider`` talks to an OFREP server (flagd, `tweak serve`, a vendor's
/// OpenFeature Remote Evaluation Protocol endpoint).
///
/// ```swift
/// var configuration = OFREPConfiguration(baseURL: URL(string: "https://flags.example.com")!)
/// configuration.headers = ["X-API-Key": apiKey]                      // never logged
/// configuration.context = EvaluationContext(targetingKey: user.id)   // what bulk mode evaluates for
/// ```
public struct OFREPConfiguration: Sendable {
    /// How flags are fetched.
    public enum Mode: Sendable, Hashable {
        /// One `POST /ofrep/v1/evaluate/flags` evaluates every flag for one context; lookups
        /// answer from it and never wait. A lookup with another context asks for a new bulk
        /// evaluation (one request per context change), answering with reason STALE until it arrives.
        case bulk
        /// One `POST /ofrep/v1/evaluate/flags/{key}` per flag and context, for servers that
        /// evaluate each request for another user. Lookups answer from the evaluations fetched so
        /// far (``OFREPConfiguration/cacheDuration``) and fetch missing ones in the background;
        /// ``OFREPTweakProvider/evaluate(flagKey:context:)`` awaits one.
        case single(flagKeys: [String])
    }

    /// The server's base URL; the provider adds `/ofrep/v1/…`.
    public var baseURL: URL
    /// Bulk (the default) or single-flag requests.
    public var mode: Mode = .bulk
    /// The context bulk mode evaluates for until a lookup brings another.
    public var context = EvaluationContext(targetingKey: nil)
    /// How often bulk mode asks again (`If-None-Match` makes an unchanged answer a 304). `nil`
    /// polls never. While the server's announced event stream is followed, the provider does not
    /// poll (see ``followsEventStreams``).
    public var pollInterval: Duration? = .seconds(30)
    /// Whether bulk mode follows the event stream a bulk answer announces (OFREP's `eventStreams`):
    /// it re-fetches when the stream says the flags changed, instead of polling, and merges
    /// messages that arrive together into one re-fetch. On by default.
    public var followsEventStreams = true
    /// The first wait after a failure; it doubles with each failure in a row.
    public var initialBackoff: Duration = .seconds(1)
    /// The longest wait after failures.
    public var maximumBackoff: Duration = .seconds(300)
    /// How long single mode serves an evaluation before fetching it again.
    public var cacheDuration: Duration = .seconds(30)
    /// The longest a request may take.
    public var requestTimeout: Duration = .seconds(10)
    /// Larger answers are refused.
    public var maximumPayloadSize = 4 * 1024 * 1024
    /// Sent with every request (`X-API-Key`, `Authorization`). Values are never logged.
    public var headers: [String: String] = [:]
    /// The source name tweaks report.
    public var name: String

    /// A server at `baseURL`; `name` is the source tweaks report (`ofrep:<host>` by default).
    public init(baseURL: URL, mode: Mode = .bulk, name: String? = nil) {
        self.baseURL = baseURL
        self.mode = mode
        self.name = name ?? "ofrep:\(baseURL.host ?? baseURL.absoluteString)"
    }

    /// `POST` here for every flag.
    var bulkURL: URL { baseURL.appending(path: "ofrep/v1/evaluate/flags") }

    /// `POST` here for one flag.
    func flagURL(_ key: String) -> URL {
        let escaped = key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? key
        return URL(string: bulkURL.absoluteString + "/" + escaped) ?? bulkURL.appending(path: key)
    }
}
