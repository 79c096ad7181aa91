public import Foundation
public import TweakKit

/// How a ``RemoteTweakProvider`` fetches, polls and streams.
///
/// ```swift
/// var configuration = RemoteConfiguration(url: URL(string: "https://config.example.com/tweaks.json")!)
/// configuration.streamURL = URL(string: "https://config.example.com/tweaks/stream")  // optional SSE
/// configuration.headers = ["Authorization": "Bearer \(token)"]                       // never logged
/// configuration.cacheDirectory = URL(filePath: "/var/cache/myapp/tweaks")             // last-known-good
/// ```
public struct RemoteConfiguration: Sendable {
    /// Where the payload is fetched from.
    public var url: URL
    /// A server-sent events endpoint that pushes changes, if the server has one.
    public var streamURL: URL?
    /// How payloads are decoded: with one format, every payload is of that format; with several,
    /// each payload goes to the first format that recognizes it
    /// (`TweakDocumentFormat.recognizes(_:)`). JustTweak's tweaks format by default.
    ///
    /// ```swift
    /// configuration.documentFormats = [.flagd, .optimizely(), .tweaks]   // whichever the server sends
    /// ```
    public var documentFormats: [any TweakDocumentFormat] = [.tweaks]

    /// The format of every payload (the only one of ``documentFormats``).
    public var documentFormat: any TweakDocumentFormat {
        get { documentFormats.first ?? .tweaks }
        set { documentFormats = [newValue] }
    }
    /// How often to poll (a 304 costs one round trip). `nil` polls never.
    public var pollInterval: Duration? = .seconds(60)
    /// Each wait is the poll interval ± this fraction, so many clients don't poll in step.
    public var jitter: Double = 0.1
    /// The first wait after a failure; it doubles with each failure in a row.
    public var initialBackoff: Duration = .seconds(1)
    /// The longest wait after failures.
    public var maximumBackoff: Duration = .seconds(300)
    /// The longest a request may take.
    public var requestTimeout: Duration = .seconds(10)
    /// Larger payloads are refused.
    public var maximumPayloadSize = 4 * 1024 * 1024
    /// Sent with every request (e.g. an `Authorization` header). Values are never logged.
    public var headers: [String: String] = [:]
    /// Called before every request for headers that change, such as a short-lived access token;
    /// its headers are added to ``headers``. A throw fails that request like a network error.
    public var headerProvider: (@Sendable () async throws -> [String: String])?
    /// Where every good payload is kept and read back at the next start (last-known-good);
    /// `nil` keeps nothing on disk.
    public var cacheDirectory: URL?
    /// The source name tweaks report.
    public var name: String
    /// Called after every fetch with its outcome, the status and the age of the last good
    /// payload (for metrics and health checks); on the fetching task, with no lock held.
    ///
    /// ```swift
    /// let sourceMetrics = TweakSourceMetrics()                // TweakKitMetrics
    /// configuration.fetchObserver = { sourceMetrics.recordFetch(source: $0.source, outcome: $0.outcome.label, lastGoodPayloadDate: $0.lastGoodPayloadDate) }
    /// ```
    public var fetchObserver: (@Sendable (RemoteFetchEvent) -> Void)?

    /// A tweaks file or flagd definitions at `url` (detected by a top-level `flags` object); `name`
    /// defaults to `remote:<host>`.
    ///
    /// ```swift
    /// var configuration = RemoteConfiguration(url: URL(string: "https://config.example.com/tweaks.json")!)
    /// configuration.pollInterval = .seconds(30)
    /// ```
    public init(url: URL, name: String? = nil) {
        self.url = url
        self.name = name ?? "remote:\(url.host ?? url.absoluteString)"
    }

    /// A payload of `documentFormat` at `url`:
    /// `RemoteConfiguration(url: OptimizelyDatafile.cdnURL(sdkKey: key), documentFormat: .optimizely())`.
    public init(url: URL, documentFormat: any TweakDocumentFormat, name: String? = nil) {
        self.init(url: url, name: name)
        self.documentFormat = documentFormat
    }
}
