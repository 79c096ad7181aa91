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

    /// A strong entity tag for the bulk answer `answer` at `generation`.
    func entityTag(for answer: [UInt8], generation: UInt64) -> String {
        let (first, second) = answer.withUnsafeBytes { AnswerHash.digest(of: $0, seeds: (instance ^ generation, ~instance &+ generation)) }
        return "\"" + hex(first) + hex(second) + "\""
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A 128-bit hash of an answer's bytes, read eight at a time into two lanes (see
/// ``ByteWords``): the byte-at-a-time FNV-1a it replaced took a bulk answer of 20 flags 2 % of
/// the server's time (see `Benchmarks/RESULTS.md`). Not cryptographic: it tells one answer of
/// this server from another, as an `ETag` needs.
enum AnswerHash {
    static func digest(of bytes: UnsafeRawBufferPointer, seeds: (UInt64, UInt64)) -> (UInt64, UInt64) {
        var first = ByteWords.fold(seeds.0 ^ UInt64(bytes.count), 0xA076_1D64_78BD_642F)
        var second = ByteWords.fold(seeds.1 ^ UInt64(bytes.count), 0xE703_7ED1_A0B4_28DB)
        ByteWords.forEach(in: bytes) { word in
            first = ByteWords.fold(first ^ word, 0xA076_1D64_78BD_642F)
            second = ByteWords.fold(second ^ (word >> 32 | word << 32), 0xE703_7ED1_A0B4_28DB)
        }
        return (ByteWords.fold(first, 0x8EBC_6AF0_9C88_C6E3), ByteWords.fold(second ^ first, 0x5899_65CC_7537_4CC3))
    }
}
