import Testing
@testable import TweakKit

extension TweakKey where Value == Bool {
    static let redView = TweakKey("ui_customization", "display_red_view", default: true)
    static let checkout = TweakKey.feature("checkout")
}

extension TweakKey where Value == Double {
    static let redViewAlpha = TweakKey("ui_customization", "red_view_alpha_component", default: 0.3)
}

extension TweakKey where Value == Int {
    static let answer = TweakKey("general", "answer_to_the_universe", default: 0)
    static let labelAsInt = TweakKey("ui_customization", "label_text", default: -1)
    static let missing = TweakKey("nowhere", "nothing", default: 99)
}

extension TweakKey where Value == String {
    static let secret = TweakKey("general", "encrypted_answer_to_the_universe", default: "fallback")
}

@Suite("Typed keys")
struct TypedAPITests {
    let manager: TweakManager
    let overrides = EphemeralTweakProvider(name: "overrides")

    init() throws {
        manager = TweakManager(tweakProviders: [overrides, try Fixtures.example()])
    }

    @Test("values come from the stack, defaults never fail")
    func values() {
        #expect(manager.value(for: .redView) == false)
        #expect(manager.value(for: .redViewAlpha) == 1.0)
        #expect(manager.value(for: .answer) == 42)
        #expect(manager.value(for: .missing) == 99)
        #expect(manager.value(for: .labelAsInt) == -1)
        #expect(manager.value(for: .checkout))
    }

    @Test("details say which provider answered and why a default was used")
    func details() throws {
        let found = manager.details(for: .redViewAlpha)
        #expect(found.reason == .found)
        #expect(found.source == "LocalTweaks_example.json")
        #expect(!found.isDefault)

        try manager.store(0.5, for: .redViewAlpha)
        let overridden = manager.details(for: .redViewAlpha)
        #expect(overridden.value == 0.5)
        #expect(overridden.source == "overrides")
        #expect(overridden.resolution.isOverridden)

        #expect(manager.details(for: .missing).reason == .notFound)
        let mismatch = manager.details(for: .labelAsInt)
        #expect(mismatch.reason == .typeMismatch(actual: .string, source: "LocalTweaks_example.json"))
        #expect(mismatch.value == -1)

        let secret = manager.details(for: .secret)
        #expect(secret.reason == .decryptionClosureNotProvided)
        #expect(secret.value == "fallback")
        manager.decryptionHandler = { _ in throw BrokenStore() }
        #expect(manager.details(for: .secret).reason == .decryptionFailed(reason: "disk unplugged"))
        manager.decryptionHandler = { tweak in .string(String((tweak.content.stringValue ?? "").reversed())) }
        #expect(manager.value(for: .secret) == "Definitely not 42")
    }

    @Test("an Int written as 1 in JSON reads as a Double through a Double key")
    func numberWidening() throws {
        try overrides.store(1, feature: "ui_customization", variable: "red_view_alpha_component")
        #expect(manager.value(for: .redViewAlpha) == 1.0)
        #expect(manager.details(for: .redViewAlpha).reason == .found)
    }

    @Test("deleting through a key restores the lower value")
    func deleteThroughKey() throws {
        try manager.store(7, for: .answer)
        #expect(manager.value(for: .answer) == 7)
        try manager.removeValue(for: .answer)
        #expect(manager.value(for: .answer) == 42)
    }

    @Test("keys of one address share what they remember, across managers and threads; a key reports the bytes it was made with")
    func keysOfOneAddress() async throws {
        // Made apart, read through two managers in turn: each read answers from its own manager.
        let first = TweakKey("general", "answer_to_the_universe", default: 0)
        let second = TweakKey<Int>(feature: "general", variable: "answer_to_the_universe", default: -1)
        let answers = EphemeralTweakProvider(name: "other")
        try answers.store(7, feature: "general", variable: "answer_to_the_universe")
        let other = TweakManager(tweakProviders: [answers])
        for _ in 0..<3 {
            #expect(manager.value(for: first) == 42 && other.value(for: second) == 7)
            #expect(other.value(for: first) == 7 && manager.value(for: second) == 42)
        }
        // Many copies read from many tasks at once.
        let keys = Array(repeating: first, count: 64)
        let manager = manager
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask { keys.reduce(0) { sum, key in sum + (index.isMultiple(of: 2) ? manager.value(for: key) : other.value(for: key)) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sums.sorted() == [7 * 64, 7 * 64, 7 * 64, 7 * 64, 42 * 64, 42 * 64, 42 * 64, 42 * 64])
        // Canonically equivalent names of other bytes: each key keeps its own.
        let composed = TweakKey("caf\u{E9}", "enabled", default: false)
        let decomposed = TweakKey("cafe\u{301}", "enabled", default: false)
        #expect(Array(composed.feature.utf8) == Array("caf\u{E9}".utf8))
        #expect(Array(decomposed.feature.utf8) == Array("cafe\u{301}".utf8))
        #expect(composed.id == decomposed.id)
    }

    @Test("evaluation details by address match those through a key; a missing address says so")
    func detailsByAddress() {
        let id = TweakID(feature: "general", variable: "answer_to_the_universe")
        let byAddress = manager.evaluationDetails(id, default: 0)
        let byKey = manager.evaluationDetails(for: TweakKey<Int>.answer)
        #expect(byAddress.value == 42 && byAddress.value == byKey.value && byAddress.reason == byKey.reason && byAddress.source == byKey.source)
        let missing = manager.evaluationDetails(TweakID(feature: "nowhere", variable: "at-all"), default: 5)
        #expect(missing.value == 5 && missing.errorCode == .flagNotFound)
    }
}
