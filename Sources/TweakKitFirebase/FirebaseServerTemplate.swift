public import Foundation

/// The Remote Config REST endpoint for server templates, to fetch with `RemoteTweakProvider`
/// (TweakKitRemote) and a fresh OAuth 2 access token before each request:
///
/// ```swift
/// var configuration = RemoteConfiguration(
///     url: FirebaseServerTemplate.url(projectID: "my-project"),
///     documentFormat: .firebase(),
///     name: "firebase"
/// )
/// configuration.headerProvider = { FirebaseServerTemplate.headers(accessToken: try await tokens.accessToken()) }
/// let firebase = RemoteTweakProvider(configuration: configuration)
/// ```
/// The token needs the `https://www.googleapis.com/auth/firebase.remoteconfig` (or
/// `cloud-platform`) scope. Firebase's admin SDKs note that the template's ETag comes back only for
/// requests that accept gzip; to poll conditionally (`If-None-Match`, a 304 for an unchanged
/// template), pass `headers(accessToken:acceptsGzip: true)` and give the provider an `HTTPClient`
/// that decompresses (`HTTPClient.Configuration(decompression: .enabled(limit: .ratio(20)))`).
public enum FirebaseServerTemplate {
    /// `https://firebaseremoteconfig.googleapis.com`
    public static let defaultBaseURL = URL(string: "https://firebaseremoteconfig.googleapis.com")!

    /// `{baseURL}/v1/projects/{projectID}/namespaces/firebase-server/serverRemoteConfig`;
    /// pass another `baseURL` for a test server.
    public static func url(projectID: String, baseURL: URL = defaultBaseURL) -> URL {
        ["v1", "projects", projectID, "namespaces", "firebase-server", "serverRemoteConfig"]
            .reduce(baseURL) { $0.appendingPathComponent($1) }
    }

    /// The headers of a template request: `Authorization: Bearer <token>` and `X-Firebase-Client`;
    /// with `acceptsGzip`, `Accept-Encoding: gzip` too — only for an HTTP client that decompresses.
    public static func headers(accessToken: String, acceptsGzip: Bool = false) -> [String: String] {
        var headers = ["Authorization": "Bearer \(accessToken)", "X-Firebase-Client": "tweakkit"]
        if acceptsGzip { headers["Accept-Encoding"] = "gzip" }
        return headers
    }
}
