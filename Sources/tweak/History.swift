import ArgumentParser
import Foundation
import TweakKit
import TweakKitStore

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a shared store's history of changes, newest first.",
        discussion: """
              tweak history --store sqlite:.tweak/store.sqlite
              tweak history --store sqlite:.tweak/store.sqlite checkout.banner --limit 5
            """
    )

    @Argument(help: ArgumentHelp("Only this tweak's changes.", valueName: "feature.variable"))
    var tweak: TweakAddress?

    @Option(help: ArgumentHelp("The shared store: sqlite:PATH or postgres://user:password@host:port/database.", valueName: "url"))
    var store: String

    @Option(help: "The most changes to print.")
    var limit = 50

    @Option(help: ArgumentHelp("How long to wait for a PostgreSQL store to connect or answer.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if !(timeout >= 0 && timeout <= 86_400) { throw ValidationError("--timeout must be from 0 to 86400 seconds") }
    }

    func run() async throws {
        let shared = try await openSharedStore(url: store, creating: false, timeout: timeout)
        let changes: [StoredTweakChange]
        do {
            changes = try await shared.history(feature: tweak?.id.feature, variable: tweak?.id.variable, limit: limit)
        } catch {
            await shared.close()
            throw error
        }
        await shared.close()
        if json {
            print(Output.render(.array(changes.map(Self.json))))
            return
        }
        var rows = [["SEQ", "TWEAK", "OLD", "NEW", "VERSION", "AUTHOR", "AT", "REASON"]]
        for change in changes {
            rows.append([
                String(change.sequence), change.id.description, change.old?.description ?? "-", change.new?.description ?? "(removed)",
                String(change.version), change.author, Self.timestamp(change.at), change.reason ?? "",
            ])
        }
        print(Output.table(rows))
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func json(_ change: StoredTweakChange) -> TweakContent {
        var object: [String: TweakContent] = [
            "sequence": .int(Int(change.sequence)), "feature": .string(change.feature), "variable": .string(change.variable),
            "old": change.old ?? .null, "new": change.new ?? .null, "version": .int(Int(change.version)),
            "author": .string(change.author), "at": .string(timestamp(change.at)),
        ]
        if let reason = change.reason { object["reason"] = .string(reason) }
        return .object(object)
    }
}
