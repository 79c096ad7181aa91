import Foundation
public import TweakKit
public import TweakKitFlagd
public import TweakKitStore
import TweakKitStorePostgres

/// The providers the service reads its flags from, highest priority first: the shared store when
/// one is configured, then the flags bundled with the service.
///
/// ```swift
/// let flags = try await FlagStack.open(storeURL: "sqlite:/var/lib/checkout/flags.sqlite")
/// let manager = TweakManager(tweakProviders: flags.providers)
/// // … serve …
/// await flags.close()
/// ```
/// A value in the store wins over the bundled one; while the store cannot be reached, the
/// provider keeps serving its last snapshot, and flags the store has no value for come from
/// the bundled file.
public struct FlagStack {
    /// The providers, highest priority first.
    public let providers: [any TweakProvider]
    /// The shared store's provider; `nil` when the service runs on its bundled flags alone.
    public let store: StoreTweakProvider?

    /// Opens the stack.
    ///
    /// - Parameter storeURL: `sqlite:PATH` or `postgres://user:password@host:port/database`;
    ///   `nil` for the bundled flags alone.
    /// - Throws: ``ServerAppError`` for a URL it cannot read or a missing bundled file, and the
    ///   store's errors when it cannot be opened.
    public static func open(storeURL: String?) async throws -> FlagStack {
        let bundled = try bundledDefaults()
        guard let storeURL else { return FlagStack(providers: [bundled], store: nil) }
        let provider = StoreTweakProvider(store: try await openSharedStore(url: storeURL), name: "store", author: "server-app")
        do {
            // Loads a snapshot, then follows the changes other processes commit.
            try await provider.start()
        } catch {
            await provider.store.close()
            throw error
        }
        return FlagStack(providers: [provider, bundled], store: provider)
    }

    /// The flags bundled with the service (`flags.flagd.json`).
    public static func bundledDefaults() throws -> FlagdTweakProvider {
        guard let url = Bundle.module.url(forResource: "flags.flagd", withExtension: "json") else {
            throw ServerAppError.missingResource("flags.flagd.json")
        }
        return try FlagdTweakProvider(contentsOf: url, name: "bundled defaults")
    }

    /// Stops following the store and closes it.
    public func close() async {
        guard let store else { return }
        store.stop()
        await store.store.close()
    }
}

/// Opens the shared store `url` names: `sqlite:PATH` (the file is created when missing, its
/// directory is not) or `postgres://…` / `postgresql://…`.
func openSharedStore(url: String) async throws -> any SharedTweakStore {
    guard let colon = url.firstIndex(of: ":") else { throw ServerAppError.invalidStoreURL(url) }
    switch url[..<colon].lowercased() {
    case "sqlite":
        let path = String(url[url.index(after: colon)...])
        guard !path.isEmpty else { throw ServerAppError.invalidStoreURL(url) }
        return try await SQLiteTweakStore.open(path: path)
    case "postgres", "postgresql":
        return try await PostgresTweakStore.connect(url: url)
    default:
        throw ServerAppError.invalidStoreURL(url)
    }
}

/// What keeps the service from starting.
public enum ServerAppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A store URL that is neither `sqlite:PATH` nor `postgres://…`.
    case invalidStoreURL(String)
    /// A file missing from the service's bundle.
    case missingResource(String)
    /// An environment variable that cannot be read.
    case invalidEnvironment(name: String, value: String)

    public var description: String {
        switch self {
        case .invalidStoreURL(let url): "cannot open the store \(redactedStoreURL(url)): use sqlite:PATH or postgres://user:password@host:port/database"
        case .missingResource(let name): "\(name) is missing from the service's bundle"
        case .invalidEnvironment(let name, let value): "\(name)=\(value) is not valid"
        }
    }
}

/// `url` as it may be shown: the password between `user:` and `@` replaced by `***`.
///
/// ```swift
/// redactedStoreURL("postgres://app:secret@db:5432/tweaks")   // "postgres://app:***@db:5432/tweaks"
/// ```
public func redactedStoreURL(_ url: String) -> String {
    guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else { return url }
    let authority = url[schemeEnd.upperBound..<at]
    guard let colon = authority.firstIndex(of: ":") else { return url }
    return String(url[..<colon]) + ":***" + String(url[at...])
}
