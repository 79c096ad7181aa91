import Foundation
import TweakCodegenCommands
import TweakKit
import TweakKitFlagd
import TweakKitRemote

/// `tweak serve --follow URL…`: the server's tweaks and flags come from replicas over HTTP (a
/// ``ReplicaTweakProvider``) instead of a store, and a flagd provider serves the flag definitions
/// the replicas send.
struct ServeFollower {
    let replica: ReplicaTweakProvider
    let flags: FlagdTweakProvider
    private let flagTask: Task<Void, Never>

    /// Starts following `replicas` and waits up to `timeout` for the first snapshot.
    static func start(replicas: [URL], token: String?, timeout: Double) async -> ServeFollower {
        var configuration = ReplicaConfiguration(replicas: replicas)
        if let token { configuration.headers["Authorization"] = "Bearer \(token)" }
        configuration.requestTimeout = .seconds(max(timeout, 1))
        let replica = ReplicaTweakProvider(configuration: configuration)
        let flags = FlagdTweakProvider(definitions: FlagdDefinitions(emptyFile: replica.name), name: "\(replica.name) flags")
        let updates = replica.sequenceUpdates()
        let flagTask = Task { [replica, flags] in
            Self.refreshFlags(of: replica, into: flags)
            for await _ in updates { Self.refreshFlags(of: replica, into: flags) }
        }
        replica.start()
        if await !replica.waitUntilReady(timeout: .seconds(timeout)) {
            let reason = replica.lastError?.message ?? "no answer within \(timeout) s"
            printWarning("no replica answered yet (\(reason)); serving the other providers until one does")
        }
        return ServeFollower(replica: replica, flags: flags, flagTask: flagTask)
    }

    /// Serves the replica's flag definitions when they changed since they were last built. Flags
    /// that cannot be read are left out with a warning; the definitions in service stay.
    private static func refreshFlags(of replica: ReplicaTweakProvider, into flags: FlagdTweakProvider) {
        // Most changes are tweaks: the definitions are gathered only when the flags changed.
        guard replica.flagGeneration > flags.generation else { return }
        let (generation, definitions) = replica.flagDefinitions
        do {
            flags.update(try FlagdDefinitions(storedDefinitions: definitions, file: replica.name), generation: generation)
        } catch {
            printWarning("the replica's flag definitions are not served: \(error)")
        }
    }

    func stop() {
        flagTask.cancel()
        replica.stop()
    }
}
