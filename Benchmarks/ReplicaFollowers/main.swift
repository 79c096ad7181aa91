// replica-followers URLS COUNT OFFSET: COUNT ReplicaTweakProviders in this one process, follower i
// following the comma-separated `tweak serve` URLS starting at the (i + OFFSET)-th (so followers
// spread across the replicas and fail over to the next). Prints "ready" once every follower has
// its snapshot and is connected to a stream; then, for each string value of a change, one line
// once every follower has applied it: "complete VALUE MONOTONIC_SECONDS" (the last follower's
// time; CLOCK_MONOTONIC, Python's time.perf_counter on Linux). Reading "check" on standard input
// prints "checked OK BAD": how many followers kept every change from their snapshot on in
// sequence order with no gap or repeat, and how many did not. Benchmarks/fleet drives it.
import AsyncHTTPClient
import Foundation
import Synchronization
import TweakKit
import TweakKitRemote

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

let output = Mutex<Void>(())

func emit(_ line: String) {
    output.withLock { _ in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), count > 0, let offset = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: replica-followers URL[,URL…] COUNT OFFSET\n".utf8))
    exit(2)
}
let replicas = arguments[1].split(separator: ",").compactMap { URL(string: String($0)) }
guard !replicas.isEmpty else {
    FileHandle.standardError.write(Data("replica-followers: no URL\n".utf8))
    exit(2)
}

/// For each value, how many followers applied it and when the last did.
let arrivals = Mutex<[String: (count: Int, last: Double)]>([:])

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: count + 16)
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)

var followers: [ReplicaTweakProvider] = []
var observations: [TweakObservation] = []
for index in 0..<count {
    let start = (index + offset) % replicas.count
    var configuration = ReplicaConfiguration(replicas: Array(replicas[start...] + replicas[..<start]), name: "follower-\(index)")
    configuration.retryDelay = .milliseconds(50)
    let follower = ReplicaTweakProvider(configuration: configuration, httpClient: client)
    observations.append(follower.observeChanges { change in
        guard case .set(let tweak) = change, case .string(let value) = tweak.content else { return }
        let at = monotonicSeconds()
        let complete = arrivals.withLock { arrivals in
            var entry = arrivals[value] ?? (0, 0)
            entry.count += 1
            entry.last = max(entry.last, at)
            arrivals[value] = entry
            return entry.count == count ? entry.last : nil
        }
        if let complete { emit("complete \(value) \(complete)") }
    })
    follower.start()
    followers.append(follower)
}
for follower in followers {
    _ = await follower.waitUntilReady(timeout: .seconds(120))
}
while !followers.allSatisfy({ $0.connectedReplica != nil }) {
    try? await Task.sleep(for: .milliseconds(20))
}
emit("ready")

while let line = readLine() {
    guard line == "check" else { continue }
    var ok = 0
    for follower in followers {
        let kept = (try? await follower.changes(after: 0, limit: 1_000_000)) ?? []
        let contiguous = zip(kept, kept.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 }
        if contiguous, kept.last?.sequence == follower.sequence { ok += 1 }
    }
    emit("checked \(ok) \(followers.count - ok)")
}
for follower in followers { follower.stop() }
try? await client.shutdown()
