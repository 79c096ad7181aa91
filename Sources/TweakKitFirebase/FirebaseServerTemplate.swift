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
/// `cloud-platform`) scope. The template's ETag comes in the response header, which the remote
/// provider sends back as `If-None-Match`, so an unchanged template costs a 304.
public enum FirebaseServerTemplate {
    /// `https://firebaseremoteconfig.googleapis.com`
    public static let defaultBaseURL = URL(string: "https://firebaseremoteconfig.googleapis.com")!

    /// `{baseURL}/v1/projects/{projectID}/namespaces/firebase-server/serverRemoteConfig`;
    /// pass another `baseURL` for a test server.
    public static func url(projectID: String, baseURL: URL = defaultBaseURL) -> URL {
        ["v1", "projects", projectID, "namespaces", "firebase-server", "serverRemoteConfig"]
            .reduce(baseURL) { $0.appendingPathComponent($1) }
    }

    /// The headers of a template request: `Authorization: Bearer <token>` and `X-Firebase-Client`.
    /// No `Accept-Encoding: gzip`: the remote provider does not decompress.
    public static func headers(accessToken: String) -> [String: String] {
        ["Authorization": "Bearer \(accessToken)", "X-Firebase-Client": "tweakkit"]
    }
}
