import Foundation
import TweakKitPostgresTestSupport
import TweakKitStore
import TweakKitStorePostgres

/// The stores the shared suite runs against: a new store is one case here and one in each
/// function below.
enum StoreKind: String, CaseIterable, Sendable {
    case sqlite
    case postgres
}

/// A new, empty store of `kind`.
func makeStore(_ kind: StoreKind) async throws -> any SharedTweakStore {
    switch kind {
    case .sqlite:
        return try await SQLiteTweakStore.open(path: try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path)
    case .postgres:
        return try await PostgresTweakStore.connect(url: PostgresCluster.freshDatabaseURL(), timeLimit: .seconds(60))
    }
}

/// A second, independent handle on the database `store` uses (another process would open one).
func openAnotherHandle(to store: any SharedTweakStore) async throws -> any SharedTweakStore {
    if let sqlite = store as? SQLiteTweakStore {
        return try await SQLiteTweakStore.open(path: sqlite.path)
    }
    if let postgres = store as? PostgresTweakStore {
        return try await PostgresTweakStore.connect(to: postgres.url, timeLimit: .seconds(60))
    }
    throw SharedTweakStoreError.invalidURL("the suite cannot open a second handle to a \(type(of: store))")
}

enum TemporaryDirectory {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tweakkit-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
