import Foundation
import Testing
import TweakKit
import TweakKitEngineSupport
import TweakKitLaunchDarkly

/// The stream's events read by the format alone, as the SDKs' in-memory store applies them.
struct StreamEventTests {
    let format = LaunchDarklyFlagsFormat()
    static let base = #"{"flags": {"f": {"key": "f", "version": 5, "on": true, "variations": [false, true], "fallthrough": {"variation": 0}}}, "segments": {}}"#

    static func flag(_ key: String, version: Int, serving variation: Int) -> String {
        #"{"key": "\#(key)", "version": \#(version), "on": true, "variations": [false, true], "fallthrough": {"variation": \#(variation)}}"#
    }

    func handle(_ name: String, _ data: String, on current: String? = base) throws -> TweakStreamEventAction {
        try format.handle(TweakStreamEvent(name: name, data: data), current: current.map { Data($0.utf8) })
    }

    /// The data set a `.replace` carries, read back as flags.
    func replaced(_ action: TweakStreamEventAction) throws -> (text: String, flags: LaunchDarklyFlags) {
        guard case .replace(let data) = action else {
            Issue.record("expected a new data set, got \(action)")
            throw CancellationError()
        }
        return (String(decoding: data, as: UTF8.self), try LaunchDarklyFlags(data: data))
    }

    func isIgnored(_ action: TweakStreamEventAction) -> Bool {
        if case .ignore = action { return true }
        return false
    }

    func serves(_ flags: LaunchDarklyFlags, _ key: String) -> JSONValue? {
        let detail = flags.evaluate(key, context: LaunchDarklyContext(kind: "user", key: "u1"))
        return detail.variationIndex == nil ? nil : detail.value
    }

    @Test func putReplacesEverything() throws {
        let put = #"{"path": "/", "data": {"flags": {"g": \#(Self.flag("g", version: 1, serving: 1))}, "segments": {}}}"#
        let (_, flags) = try replaced(try handle("put", put))
        #expect(flags.flagKeys == ["g"])
        #expect(serves(flags, "g") == .bool(true))
    }

    @Test func patchAppliesOnlyNewerVersions() throws {
        let newer = try replaced(try handle("patch", #"{"path": "/flags/f", "data": \#(Self.flag("f", version: 6, serving: 1))}"#))
        #expect(serves(newer.flags, "f") == .bool(true))
        for version in [5, 4] {
            guard case .ignore(let reason) = try handle("patch", #"{"path": "/flags/f", "data": \#(Self.flag("f", version: version, serving: 1))}"#) else {
                Issue.record("version \(version) applied over 5")
                continue
            }
            #expect(reason.contains("version 5 is in service"), "\(reason)")
        }
        // A new flag is added; a patch before any data applies to an empty data set.
        #expect(try replaced(try handle("patch", #"{"path": "/flags/h", "data": \#(Self.flag("h", version: 1, serving: 1))}"#)).flags.flagKeys == ["f", "h"])
        #expect(try replaced(try handle("patch", #"{"path": "/flags/h", "data": \#(Self.flag("h", version: 1, serving: 1))}"#, on: nil)).flags.flagKeys == ["h"])
    }

    @Test func deleteLeavesATombstoneThatOlderPatchesCannotRaise() throws {
        let deleted = try replaced(try handle("delete", #"{"path": "/flags/f", "version": 7}"#))
        #expect(!deleted.flags.contains("f"))
        #expect(deleted.text.contains(#""f":{"key":"f","version":7,"deleted":true}"#), "\(deleted.text)")
        for version in [6, 7] {
            let action = try handle("patch", #"{"path": "/flags/f", "data": \#(Self.flag("f", version: version, serving: 1))}"#, on: deleted.text)
            #expect(action == .ignore(because: "patch of /flags/f version \(version): version 7 is in service"))
        }
        #expect(isIgnored(try handle("delete", #"{"path": "/flags/f", "version": 7}"#, on: deleted.text)))
        // A newer version brings it back, as in the SDKs.
        let back = try replaced(try handle("patch", #"{"path": "/flags/f", "data": \#(Self.flag("f", version: 8, serving: 1))}"#, on: deleted.text))
        #expect(serves(back.flags, "f") == .bool(true))
        // A delete older than the item in service changes nothing.
        #expect(isIgnored(try handle("delete", #"{"path": "/flags/f", "version": 3}"#)))
    }

    @Test func otherEventsAndPathsAreIgnored() throws {
        #expect(isIgnored(try handle("heartbeat", "{}")))
        #expect(isIgnored(try handle("patch", #"{"path": "/other/x", "data": {"version": 1}}"#)))
        #expect(isIgnored(try handle("patch", #"{"path": "/flags/", "data": {"version": 1}}"#)))
    }

    @Test("data that is not what its event promises throws", arguments: [
        ("patch", "{not json"),
        ("patch", #"{"path": "/flags/f", "data": {"key": "f"}}"#),
        ("patch", #"{"path": "/flags/f", "data": {"key": "g", "version": 9}}"#),
        ("patch", #"{"data": {"key": "f", "version": 9}}"#),
        ("delete", #"{"path": "/flags/f", "version": "9"}"#),
        ("put", #"{"path": "/", "data": []}"#),
        ("put", #"{"path": "/", "data": {"flags": []}}"#),
    ])
    func garbageThrows(name: String, data: String) {
        #expect(throws: LaunchDarklyDataError.self) { try handle(name, data) }
    }

    @Test func endpoints() {
        #expect(LaunchDarklyFlagsFormat.pollingURL().absoluteString == "https://sdk.launchdarkly.com/sdk/latest-all")
        #expect(LaunchDarklyFlagsFormat.streamURL().absoluteString == "https://stream.launchdarkly.com/all")
        #expect(LaunchDarklyFlagsFormat.headers(sdkKey: "sdk-123") == ["Authorization": "sdk-123"])
    }
}
