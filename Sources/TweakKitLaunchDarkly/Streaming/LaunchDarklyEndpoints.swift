public import Foundation

/// Where LaunchDarkly's server-side SDKs fetch and stream flag data, and how they say who they are.
///
/// TweakKitLaunchDarkly does not depend on TweakKitRemote (no integration depends on another), so
/// an app that fetches over HTTP builds the `RemoteConfiguration` from these:
///
/// ```swift
/// var configuration = RemoteConfiguration(url: LaunchDarklyFlagsFormat.pollingURL(), documentFormat: .launchDarkly(), name: "LaunchDarkly")
/// configuration.streamURL = LaunchDarklyFlagsFormat.streamURL()               // optional: changes as they happen
/// configuration.headers = LaunchDarklyFlagsFormat.headers(sdkKey: sdkKey)     // the SDK key, never logged
/// ```
extension LaunchDarklyFlagsFormat {
    /// `https://sdk.launchdarkly.com`, the polling service's base URI.
    public static let defaultBaseURI = URL(string: "https://sdk.launchdarkly.com") ?? URL(fileURLWithPath: "/")
    /// `https://stream.launchdarkly.com`, the streaming service's base URI.
    public static let defaultStreamURI = URL(string: "https://stream.launchdarkly.com") ?? URL(fileURLWithPath: "/")

    /// `{baseURI}/sdk/latest-all`: every flag and segment, `{"flags": {…}, "segments": {…}}`,
    /// answered 304 to a matching `If-None-Match`. A relay proxy's or federal instance's base URI
    /// goes in `baseURI`.
    ///
    /// ```swift
    /// let relay = URL(string: "https://ld-relay.internal:8030") ?? LaunchDarklyFlagsFormat.defaultBaseURI
    /// let url = LaunchDarklyFlagsFormat.pollingURL(baseURI: relay)   // https://ld-relay.internal:8030/sdk/latest-all
    /// ```
    public static func pollingURL(baseURI: URL = defaultBaseURI) -> URL {
        baseURI.appendingPathComponent("sdk/latest-all")
    }

    /// `{streamURI}/all`: the server-sent events `put`, `patch` and `delete` (see
    /// ``handle(_:current:)``).
    ///
    /// ```swift
    /// let stream = LaunchDarklyFlagsFormat.streamURL()   // https://stream.launchdarkly.com/all
    /// ```
    public static func streamURL(streamURI: URL = defaultStreamURI) -> URL {
        streamURI.appendingPathComponent("all")
    }

    /// The header the SDKs send with every request: the SDK key itself as `Authorization` (no
    /// `Bearer`).
    ///
    /// ```swift
    /// LaunchDarklyFlagsFormat.headers(sdkKey: "sdk-1234")   // ["Authorization": "sdk-1234"]
    /// ```
    public static func headers(sdkKey: String) -> [String: String] {
        ["Authorization": sdkKey]
    }
}
