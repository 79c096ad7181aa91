import ArgumentParser
import Foundation
import TweakCodegenCommands
import TweakKit
import TweakKitServer
import TweakKitStore

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the tweak editor: a web page and JSON API over the provider stack, with /metrics (Prometheus) and /health.",
        discussion: "Overrides go to the shared store .tweak/store.sqlite unless --store URL or --overrides FILE says otherwise; several tweak serve on one store are editors of the same tweaks and see each other's changes live. Without any --defaults or flag file it serves Examples/LocalTweaks_example.json. Writes need the token (given with --token, or generated and printed at start); the printed URL carries it. Named tokens with roles come from --tokens FILE or the variable TWEAK_SERVE_TOKENS (the same JSON, for containers): {\"tokens\": [{\"name\": \"ada\", \"token\": \"…\", \"role\": \"edit\"}]}; read may see pages, flags and evaluations, edit may also change flags and tweaks, admin everything including resetting all overrides; the history records the token's name, and --token is one more admin. Flags: /api/flags keeps flagd flag definitions in the shared store, versioned like tweaks and followed live by every tweak serve on it. On start, each flag of a --flags file that the store has never held (no history under its key) is copied into the store (author \"seed\"); after that the store's definition wins and edits of the file do not overwrite it, a flag removed through the API stays removed, and the file's flags stay served below the store's, so a flag the store lacks (one using $ref, or when the store cannot be written) still answers from the file. Reads are open on loopback (answering only requests for 127.0.0.1, localhost, [::1] and --allow-host names) and need the token on any other address. Idle connections close after 30 s, a request (head and body) must arrive within 10 s of its first byte, and at most --max-connections (256) connections are open. With --follow URL (repeatable) the server keeps no store: it follows those tweak serve replicas over HTTP (a snapshot from /api/replica, then /api/events from its sequence, moving to the next URL when one fails and resuming where it was), serves reads, OFREP and its own change stream from them, so followers can follow it in turn, and refuses writes with 405. OFREP evaluations run on threads of their own, so a slow one never holds up other requests; one that takes longer than --evaluation-budget is answered 503."
    )

    static let exampleDefaults = "Examples/LocalTweaks_example.json"
    /// Where overrides go when neither --store nor --overrides is given.
    static let defaultStore = "sqlite:.tweak/store.sqlite"

    @OptionGroup var stack: StackOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("The token writes must carry; generated when not given.", valueName: "token"))
    var token: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "A Host name answered besides 127.0.0.1, localhost and [::1] while reads are open (repeatable); other names are refused against DNS rebinding.",
        valueName: "name"))
    var allowedHosts: [String] = []

    @Option(help: ArgumentHelp(
        "A JSON file of named tokens with roles, {\"tokens\": [{\"name\": \"ada\", \"token\": \"…\", \"role\": \"read|edit|admin\"}]}; or the same JSON in \(Self.tokensVariable).",
        valueName: "file"), completion: .file(extensions: ["json"]))
    var tokens: URL?

    @Option(name: .customLong("follow"), help: ArgumentHelp(
        "Follow this tweak serve (a replica on a shared store, or another follower) instead of opening a store; repeat for several, tried in order when one fails. The server then answers reads, OFREP and its own change stream from what the replica sends, and refuses writes.",
        valueName: "url"))
    var follow: [String] = []

    @Option(name: .customLong("follow-token"), help: ArgumentHelp("The token the followed servers' reads need (off loopback).", valueName: "token"))
    var followToken: String?

    @Option(help: ArgumentHelp("The most connections open at once (each follower or change-stream client holds one); the longest-idle one is closed to make room.", valueName: "count"))
    var maxConnections = 256

    @Option(help: ArgumentHelp("An API key OFREP requests must carry in X-API-Key.", valueName: "key"))
    var apiKey: String?

    @Option(help: ArgumentHelp("How long one OFREP request's evaluation may take before it is answered 503.", valueName: "seconds"))
    var evaluationBudget: Double = 2

    func validate() throws {
        if let token, token.count < 8 { throw ValidationError("--token must be at least 8 characters") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be from 1 to 100000") }
        guard evaluationBudget > 0, evaluationBudget <= 3600 else { throw ValidationError("--evaluation-budget must be more than 0 and at most 3600 seconds") }
        for url in follow where URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--follow must be an http or https URL of a tweak serve, found \(url)")
        }
        if !follow.isEmpty, stack.store != nil || stack.overrides != nil {
            throw ValidationError("--follow serves what the replicas send and writes nowhere: give it without --store and --overrides")
        }
    }

    /// The URLs of --follow.
    var followedReplicas: [URL] { follow.compactMap(URL.init(string:)) }

    func run() async throws {
        var stack = self.stack
        if !follow.isEmpty {
            try await serveFollowing(stack)
            return
        }
        if stack.isEmpty {
            guard FileManager.default.fileExists(atPath: Self.exampleDefaults) else {
                throw ValidationError("give --defaults FILE (and --store URL or --overrides FILE), or run from the TweakKit checkout to serve its example")
            }
            stack.defaults = [URL(fileURLWithPath: Self.exampleDefaults)]
        }
        if !stack.isWritable {
            stack.store = Self.defaultStore
        }
        let observability = ServeObservability()
        try await stack.withManager(
            createsStore: true,
            pollOverrides: true, fetchObserver: observability.fetchObserver, storeObserver: observability.storeChangeObserver
        ) { manager in
            try await serve(manager, observability: observability)
        }
    }

    /// With --follow: the replica's tweaks and flags above the other providers given (if any).
    private func serveFollowing(_ stack: StackOptions) async throws {
        let follower = await ServeFollower.start(replicas: followedReplicas, token: followToken, timeout: stack.timeout)
        defer { follower.stop() }
        let observability = ServeObservability()
        let providers: [any TweakProvider] = [follower.replica, follower.flags]
        if stack.isEmpty {
            try await serve(TweakManager(tweakProviders: providers), observability: observability, changeLog: follower.replica)
            return
        }
        try await stack.withManager(pollOverrides: true, fetchObserver: observability.fetchObserver, above: providers) { manager in
            try await serve(manager, observability: observability, changeLog: follower.replica)
        }
    }

    private func serve(_ manager: TweakManager, observability: ServeObservability, changeLog: (any SequencedTweakProvider)? = nil) async throws {
        observability.instrument(manager)
        let token = self.token ?? Self.makeToken()
        let namedTokens = try Self.namedTokens(file: tokens, environment: ProcessInfo.processInfo.environment)
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        var editor = TweakEditor(
            manager: manager, token: token, readsRequireToken: !loopback, allowedHosts: Swift.Set(allowedHosts), maximumConnections: maxConnections)
        let shared = manager.mutableTweakProvider as? StoreTweakProvider
        editor.sharedStore = changeLog ?? shared
        editor.flagStore = shared
        editor.tokens = namedTokens
        editor.author = "editor (\(StackOptions.cliUser))"
        var ofrep = OFREPRoutes(
            manager: manager, requiredToken: loopback ? nil : token, apiKey: apiKey, evaluationBudget: .milliseconds(Int64(evaluationBudget * 1000)))
        if !loopback { ofrep.acceptedTokens = namedTokens.map(\.token) }
        editor.ofrep = ofrep
        if let shared { await Self.seedFlags(from: stack.flagFiles.flagd.map(\.url), into: shared) }
        editor.additionalRoutes = { routes in observability.addRoutes(to: routes, manager: manager) }
        let host = self.host
        do {
            try await serve(editor, host: host)
        } catch let error as any CustomStringConvertible where "\(error)".contains("Address already in use") {
            throw CommandFailure("\(host):\(port) is already in use; choose another port with --port (0 picks a free one)")
        }
    }

    private func serve(_ editor: TweakEditor, host: String) async throws {
        // A token given with --token (or --tokens) is never printed: whoever gave it has it. A
        // generated one is printed once, on standard output, as the only way to learn it.
        let generated = self.token == nil ? editor.token : nil
        try await editor.run(host: host, port: port) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            let lines = if let generated {
                """
                TweakKit editor: http://\(shownHost):\(port)/#token=\(generated)
                token for changes (generated; give your own with --token or --tokens): \(generated)

                """
            } else {
                """
                TweakKit editor: http://\(shownHost):\(port)/
                token for changes: the one given with --token

                """
            }
            FileHandle.standardOutput.write(Data(lines.utf8))
        }
    }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
