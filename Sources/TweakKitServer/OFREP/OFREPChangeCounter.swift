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

/// A 128-bit hash of an answer's bytes, read eight at a time into two lanes: about 15 times
/// faster than the byte-at-a-time FNV-1a it replaced, which took a bulk answer of 20 flags
/// 2 % of the server's time (see `Benchmarks/RESULTS.md`). Not cryptographic: it tells one
/// answer of this server from another, as an `ETag` needs.
enum AnswerHash {
    static func digest(of bytes: UnsafeRawBufferPointer, seeds: (UInt64, UInt64)) -> (UInt64, UInt64) {
        var first = seeds.0 ^ 0x9E37_79B9_7F4A_7C15
        var second = seeds.1 ^ 0xC2B2_AE3D_27D4_EB4F
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            first = mix(first ^ word, 0xFF51_AFD7_ED55_8CCD)
            second = mix(second ^ (word >> 32 | word << 32), 0xC4CE_B9FE_1A85_EC53)
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        let length = UInt64(bytes.count)
        first = finish(mix(first ^ tail, 0xFF51_AFD7_ED55_8CCD) ^ length)
        second = finish(mix(second ^ tail, 0xC4CE_B9FE_1A85_EC53) ^ (length << 1))
        return (first ^ second >> 7, second)
    }

    private static func mix(_ value: UInt64, _ multiplier: UInt64) -> UInt64 {
        let product = value &* multiplier
        return product ^ (product >> 29)
    }

    /// MurmurHash3's 64-bit finalizer.
    private static func finish(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}
