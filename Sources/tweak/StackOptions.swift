public import ArgumentParser
import Foundation
import TweakCodegenCommands
public import TweakKit
import TweakKitRemote
import TweakKitStore

/// The provider stack shared by the commands that read or write tweaks.
struct StackOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A tweaks JSON file; repeat for several (the first wins).", valueName: "file"), completion: .file(extensions: ["json"]))
    var defaults: [URL] = []

    @Option(name: .long, help: ArgumentHelp("The overrides JSON file that set and delete write to.", valueName: "file"), completion: .file(extensions: ["json"]))
    var overrides: URL?

    @Option(name: .long, help: ArgumentHelp("A shared store that set and delete write to, above everything else: sqlite:PATH (sqlite:PATH?mode=ro only reads) or postgres://user:password@host:port/database.", valueName: "url"))
    var store: String?

    /// The flag files, one option a format; repeat for several (the first given wins), above the --defaults.
    @OptionGroup(title: "Flag files")
    var flagFiles: FlagFileOptions

    @Option(name: .long, help: ArgumentHelp("A remote source over HTTP (any of the formats \(SourceFormats.optionList) read, or a tweaks file), above the flag files and below the --overrides.", valueName: "url"))
    var remote: String?

    @Option(name: .long, help: ArgumentHelp("Where the remote source's last-known-good payload is kept.", valueName: "dir"), completion: .directory)
    var cache: URL?

    @Option(name: .long, help: ArgumentHelp("How long to wait for the remote source before answering from what there is, and for a PostgreSQL --store to connect or answer.", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        if let remote, URL(string: remote)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--remote must be an http or https URL, found \(remote)")
        }
        if cache != nil && remote == nil { throw ValidationError("--cache goes with --remote") }
        if store != nil && overrides != nil { throw ValidationError("give --store URL or --overrides FILE, not both: writes go to one of them") }
        if !(timeout >= 0 && timeout <= 86_400) { throw ValidationError("--timeout must be from 0 to 86400 seconds") }
    }

    /// Whether no source was given at all.
    var isEmpty: Bool { defaults.isEmpty && overrides == nil && store == nil && remote == nil && flagFiles.files.isEmpty }

    /// Whether writes have somewhere to go.
    var isWritable: Bool { overrides != nil || store != nil }

    /// Builds the manager: overrides first, then the remote source, then the flag files, then the
    /// defaults, each group in the order given. With a remote source, waits up to --timeout for its
    /// first fetch, and says on stderr when it answers without it.
    /// - Parameter pollOverrides: whether to follow changes other processes make to the overrides
    ///   file (a long-running command wants that; a one-shot one does not).
    /// - Parameter fetchObserver: told the outcome of every fetch of the remote source.
    /// - Parameter body: runs with the manager; the shared store (if any) is closed after it
    ///   returns or throws, so a one-shot command leaves no connection open.
    /// - Parameter storeObserver: told of the changes the shared store's provider applies.
    /// - Parameter createsStore: whether a `--store sqlite:PATH` that does not exist yet is created
    ///   (commands that write) or refused (commands that only read).
    /// - Parameter above: providers above all the others (`tweak serve --follow`'s replica).
    func withManager<Result>(
        createsStore: Bool = false, pollOverrides: Bool = false, fetchObserver: (@Sendable (RemoteFetchEvent) -> Void)? = nil,
        storeObserver: (@Sendable (StoreChangesApplied) -> Void)? = nil, above: [any TweakProvider] = [],
        _ body: (TweakManager) async throws -> Result
    ) async throws -> Result {
        let (manager, shared) = try await makeManager(
            createsStore: createsStore, pollOverrides: pollOverrides, fetchObserver: fetchObserver, storeObserver: storeObserver, above: above)
        do {
            let result = try await body(manager)
            await Self.close(shared)
            return result
        } catch {
            await Self.close(shared)
            throw error
        }
    }

    private func makeManager(
        createsStore: Bool, pollOverrides: Bool, fetchObserver: (@Sendable (RemoteFetchEvent) -> Void)?,
        storeObserver: (@Sendable (StoreChangesApplied) -> Void)?, above: [any TweakProvider]
    ) async throws -> (TweakManager, StoreTweakProvider?) {
        guard !isEmpty else {
            throw ValidationError("give at least one --defaults FILE, an --overrides FILE, a --store URL, a flag file (\(SourceFormats.optionList)) or a --remote URL")
        }
        var providers: [any TweakProvider] = above
        var shared: StoreTweakProvider?
        if let store {
            let provider = StoreTweakProvider(
                store: try await openSharedStore(url: store, creating: createsStore, timeout: timeout), name: sharedStoreDisplayName(url: store), author: Self.cliUser, onChangesApplied: storeObserver)
            do {
                try await provider.start()
            } catch {
                await provider.store.close()
                throw error
            }
            if !pollOverrides { provider.stop() }
            // The flags kept in the store, right below its values and above every file: stored flags win.
            providers += [provider, provider.flags]
            shared = provider
        }
        do {
            providers += try await otherProviders(pollOverrides: pollOverrides, fetchObserver: fetchObserver)
        } catch {
            await Self.close(shared)
            throw error
        }
        return (TweakManager(tweakProviders: providers), shared)
    }

    /// The providers below the shared store: overrides, remote, flag files, defaults.
    private func otherProviders(pollOverrides: Bool, fetchObserver: (@Sendable (RemoteFetchEvent) -> Void)?) async throws -> [any TweakProvider] {
        var providers: [any TweakProvider] = []
        if let overrides {
            providers.append(try PersistentTweakProvider(fileURL: overrides, pollInterval: pollOverrides ? .milliseconds(500) : nil))
        }
        if let remote, let url = URL(string: remote) {
            var configuration = RemoteConfiguration(url: url)
            configuration.documentFormats = SourceFormats.formats
            configuration.pollInterval = pollOverrides ? .seconds(30) : nil
            configuration.requestTimeout = .seconds(max(timeout, 0.001))
            configuration.cacheDirectory = cache
            configuration.fetchObserver = fetchObserver
            let provider = RemoteTweakProvider(configuration: configuration)
            provider.start()
            let status = await provider.waitUntilReady(timeout: .seconds(timeout))
            if status != .ready {
                let reason = provider.lastError?.description ?? "no answer within \(timeout) s"
                let fallback = status == .stale ? "its last-known-good payload" : "the other providers"
                printWarning("remote \(remote) not reached (\(reason)); answering from \(fallback)")
            }
            providers.append(provider)
        }
        for file in flagFiles.files {
            providers.append(try file.provider())
        }
        for url in defaults {
            providers.append(try LocalTweakProvider(fileURL: url))
        }
        return providers
    }
}

extension StackOptions {
    /// Stops following the shared store and closes it.
    static func close(_ shared: StoreTweakProvider?) async {
        guard let shared else { return }
        shared.stop()
        await shared.store.close()
    }

    /// The author the history records for changes made with the tool: the login name.
    static var cliUser: String {
        ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.environment["LOGNAME"] ?? "tweak"
    }
}

/// A `feature.variable` argument.
struct TweakAddress: ExpressibleByArgument {
    let id: TweakID

    init?(argument: String) {
        guard let id = TweakID(parsing: argument) else { return nil }
        self.id = id
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension TweakContent.Kind: ExpressibleByArgument {
    /// Reads a type name given on the command line (`--type bool`), in any case.
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// The scalar type names, lower-cased, for help and completion.
    public static var allValueStrings: [String] {
        allCases.filter(\.isScalar).map { $0.rawValue.lowercased() }
    }
}
