import Foundation
import HTTPTypes
import ServerApp
import Testing
import TweakKit
import TweakKitStore

@Suite("ServerApp over HTTP")
struct ServerAppTests {
    @Test("the new checkout rolls out to about 25% of users, each user always getting the same answer")
    func rollout() async throws {
        let service = ServerApp(flags: try await FlagStack.open(storeURL: nil))
        let enabled = try await withLiveServer(service) { client in
            var enabled = 0
            for user in 0..<1000 {
                let headers = ["X-User-ID": "user-\(user)"]
                let first = try await client.checkout(headers)
                let again = try await client.checkout(headers)
                #expect(first == again, "user-\(user) got \(first), then \(again)")
                // flagd reports a variant chosen by a rule, a split included, as TARGETING_MATCH.
                #expect(first["reason"] == "TARGETING_MATCH")
                #expect(first["variant"] == (first["newCheckout"] == true ? "on" : "off"))
                if first["newCheckout"] == true { enabled += 1 }
            }
            return enabled
        }
        // 25% of 1,000 is 250, with a standard deviation of about 14.
        #expect((200...300).contains(enabled), "\(enabled) of 1,000 users got the new checkout")
    }

    @Test("the request's headers are its evaluation context: users in the Netherlands all get the new checkout")
    func contextFromHeaders() async throws {
        let service = ServerApp(flags: try await FlagStack.open(storeURL: nil))
        try await withLiveServer(service) { client in
            for user in 0..<20 {
                let answer = try await client.checkout(["X-User-ID": "user-\(user)", "X-Country": "nl"])
                #expect(answer["newCheckout"] == true)
                #expect(answer["reason"] == "TARGETING_MATCH")
            }
        }
    }

    @Test("a value written to the shared store changes the answer live, and removing it brings the rollout back")
    func storeOverride() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ServerAppTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("flags.sqlite").path

        let flags = try await FlagStack.open(storeURL: "sqlite:\(path)")
        // Another process's view of the store: an editor, the `tweak` tool, another instance.
        let editor = try await SQLiteTweakStore.open(path: path)
        do {
            try await withLiveServer(ServerApp(flags: flags)) { client in
                // A user the rollout leaves out.
                var user: [String: String] = [:]
                for id in 0..<100 where user.isEmpty {
                    let headers = ["X-User-ID": "user-\(id)"]
                    if try await client.checkout(headers)["newCheckout"] == false { user = headers }
                }
                try #require(!user.isEmpty, "no user of 100 was outside a 25% rollout")
                #expect(try await client.checkout(user)["source"] == "bundled defaults")

                _ = try await editor.apply([TweakWrite(feature: "new-checkout", variable: "enabled", value: true)], author: "test", reason: "everyone")
                let overridden = try await eventually { try await client.checkout(user)["newCheckout"] == true }
                #expect(overridden, "the store's value never reached the running service")
                let answer = try await client.checkout(user)
                #expect(answer["source"] == "store")
                #expect(answer["reason"] == "STATIC")

                _ = try await editor.apply([TweakWrite(feature: "new-checkout", variable: "enabled", value: nil)], author: "test", reason: "back to the rollout")
                let restored = try await eventually { try await client.checkout(user)["source"] == "bundled defaults" }
                #expect(restored, "removing the store's value never reached the running service")
                #expect(try await client.checkout(user)["newCheckout"] == false)
            }
        } catch {
            await editor.close()
            await flags.close()
            throw error
        }
        await editor.close()
        await flags.close()
    }

    @Test("/metrics counts the evaluations by flag, variant and reason")
    func metrics() async throws {
        let service = ServerApp(flags: try await FlagStack.open(storeURL: nil))
        try await withLiveServer(service) { client in
            for _ in 0..<3 { _ = try await client.checkout(["X-Country": "NL"]) }
            let (status, body) = try await client.get("/metrics")
            #expect(status == .ok)
            let lines = body.split(separator: "\n")
            #expect(lines.contains { line in
                line.hasPrefix("feature_flag_evaluations{") && line.contains(#"feature_flag_key="new-checkout.enabled""#)
                    && line.contains(#"feature_flag_result_variant="on""#) && line.contains(#"feature_flag_result_reason="targeting_match""#)
                    && line.hasSuffix(" 3")
            }, "\(body)")
        }
    }

    @Test("/health answers, naming where the flags come from")
    func health() async throws {
        let service = ServerApp(flags: try await FlagStack.open(storeURL: nil))
        try await withLiveServer(service) { client in
            let (status, body) = try await client.get("/health")
            #expect(status == .ok)
            guard case .object(let fields) = try TweakContent(jsonText: body) else {
                Issue.record("/health answered \(body)")
                return
            }
            #expect(fields["status"] == "ok")
            #expect(fields["store"] == "none (bundled defaults only)")
        }
    }

    @Test("the settings come from the environment; a bad port or store URL is refused")
    func configuration() async throws {
        let settings = try ServerConfiguration(environment: ["TWEAK_STORE": "sqlite:/tmp/flags.sqlite", "PORT": "9000"])
        #expect(settings == (try ServerConfiguration(environment: ["TWEAK_STORE": "sqlite:/tmp/flags.sqlite", "PORT": "9000", "HOST": "127.0.0.1"])))
        #expect(settings.port == 9000)
        #expect(try ServerConfiguration(environment: [:]).storeURL == nil)
        #expect(throws: ServerAppError.invalidEnvironment(name: "PORT", value: "http")) {
            try ServerConfiguration(environment: ["PORT": "http"])
        }
        await #expect(throws: ServerAppError.invalidStoreURL("redis://localhost")) {
            try await FlagStack.open(storeURL: "redis://localhost")
        }
    }
}

/// Whether `condition` holds within `timeout`, asking every 20 ms.
func eventually(timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
