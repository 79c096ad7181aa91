// store-followers URL COUNT: COUNT StoreTweakProviders following one PostgreSQL store, each over
// connections of its own (a PostgresTweakStore each: its client pool and its LISTEN connection),
// in this one process. Prints "ready" once all have loaded their snapshot, then one line per
// change each applies: "applied PROVIDER VALUE MONOTONIC_SECONDS" (CLOCK_MONOTONIC, the clock of
// Python's time.perf_counter on Linux). Benchmarks/store-latency --followers drives it.
import Foundation
import Synchronization
import TweakKit
import TweakKitStore
import TweakKitStorePostgres

let output = Mutex<Void>(())

func emit(_ line: String) {
    output.withLock { _ in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    FileHandle.standardError.write(Data("usage: store-followers POSTGRES_URL COUNT\n".utf8))
    exit(2)
}
let url = arguments[1]

var providers: [StoreTweakProvider] = []
do {
    for index in 0..<count {
        let store = try await PostgresTweakStore.connect(url: url)
        let provider = StoreTweakProvider(store: store, name: "follower-\(index)", onChangesApplied: { applied in
            let at = monotonicSeconds()
            for change in applied.changes {
                if case .string(let value)? = change.new {
                    emit("applied \(index) \(value) \(at)")
                }
            }
        })
        try await provider.start()
        providers.append(provider)
    }
} catch {
    FileHandle.standardError.write(Data("store-followers: \(error)\n".utf8))
    exit(1)
}
emit("ready")
// Runs until the harness terminates the process.
while true {
    try? await Task.sleep(for: .seconds(3600))
}
