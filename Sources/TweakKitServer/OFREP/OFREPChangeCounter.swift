import Synchronization
import TweakKit

/// Counts changes to the providers behind the OFREP routes, and makes the bulk answer's `ETag`.
///
/// The tag hashes the answer, the change count and a number drawn when the routes are made, so it
/// changes whenever a flag's value or definition changes (a reloaded file, a new override, a
/// remote update), even when this context's answer happens to stay the same, and after a restart.
final class OFREPChangeCounter: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextSubscriber = 0
        var subscribers: [Int: AsyncStream<UInt64>.Continuation] = [:]
    }

    private let state = Mutex(State())
    private let instance = UInt64.random(in: .min ... .max)
    private let observations: Mutex<[TweakObservation]> = Mutex([])

    init(providers: [any TweakProvider]) {
        let registered = providers.map { provider in
            provider.observeChanges { [weak self] _ in self?.changed() }
        }
        observations.withLock { $0 = registered }
    }

    deinit {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.finish() }
    }

    /// How many provider changes were seen.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// The configuration's version for event streams: this run's number and the change count, so
    /// that a restarted server never repeats an id.
    func configurationTag(_ generation: UInt64) -> String {
        hex(instance) + "-" + String(generation)
    }

    /// A stream of generations, holding the newest only: a burst of changes is one wake-up.
    func subscribe() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    private func changed() {
        let (generation, subscribers) = state.withLock { state in
            state.generation &+= 1
            return (state.generation, Array(state.subscribers.values))
        }
        for subscriber in subscribers { subscriber.yield(generation) }
    }

    /// A strong entity tag for the bulk answer `text` at `generation`.
    func entityTag(for text: String, generation: UInt64) -> String {
        var first = FNV1a(seed: instance ^ generation)
        var second = FNV1a(seed: ~instance &+ generation)
        for byte in text.utf8 {
            first.add(byte)
            second.add(byte)
        }
        return "\"" + hex(first.value) + hex(second.value) + "\""
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// 64-bit FNV-1a, started from a seeded offset basis.
struct FNV1a {
    private(set) var value: UInt64

    init(seed: UInt64) {
        value = 0xcbf2_9ce4_8422_2325 ^ seed
    }

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
