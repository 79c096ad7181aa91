import Foundation
import Synchronization
import Testing
import TweakKit

/// A document whose one tweak is evaluated per lookup: the targeting key, reversed.
private struct MirrorDocument: TweakDocument {
    var suffix = ""
    func tweaks(source: String) -> [Tweak] {
        [Tweak(feature: "mirror", variable: "name", content: .string("nobody" + suffix), source: source)]
    }
    /// No fixed value: without a targeting key the providers below answer.
    func tweak(_ id: TweakID, source: String) -> Tweak? { nil }
    var evaluatedTweakIDs: [TweakID] { [TweakID(feature: "mirror", variable: "name")] }
    func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        guard let key = context.targetingKey else { return nil }  // leave it to the providers below
        return TweakEvaluation(value: .string(String(key.reversed()) + suffix), reason: .targetingMatch)
    }
}

private struct MirrorFormat: TweakDocumentFormat {
    var name: String { "mirror" }
    func document(from data: Data, source: String) throws -> any TweakDocument { MirrorDocument() }
}

@Suite("DocumentTweakProvider")
struct DocumentTweakProviderTests {
    @Test("a tweaks file, reloaded: a broken file is refused with its place and the good document stays")
    func reload() throws {
        let url = try writeTemporaryFile(#"{"ui": {"label": {"Value": "one"}}}"#)
        let provider = try DocumentTweakProvider(contentsOf: url, format: .tweaks)
        let manager = TweakManager(tweakProviders: [provider])
        let changes = Mutex(0)
        let observation = provider.observeChanges { _ in changes.withLock { $0 += 1 } }
        #expect(try manager.tweakWith(feature: "ui", variable: "label").content == "one")
        #expect(try manager.tweakWith(feature: "ui", variable: "label").source == "tweaks.json")

        try Data(#"{"ui": {"label": {"Value": "two"}}}"#.utf8).write(to: url)
        try provider.reload()
        #expect(try manager.tweakWith(feature: "ui", variable: "label").content == "two")
        #expect(changes.withLock { $0 } == 1)

        try Data("{\"ui\": {\"label\": {\"Value\": }}}".utf8).write(to: url)
        let error = #expect(throws: TweakFileError.self) { try provider.reload() }
        #expect(error?.description.hasPrefix("\(url.path):1:") == true)
        // The provider itself still serves the good document, and told nobody of a change.
        #expect(try provider.tweakWith(feature: "ui", variable: "label").content == "two")
        #expect(changes.withLock { $0 } == 1)
        #expect(try manager.tweakWith(feature: "ui", variable: "label").content == "two")
        withExtendedLifetime(observation) {}
    }

    @Test("a missing file is a clear error")
    func missingFile() {
        let error = #expect(throws: TweakFileError.self) {
            try DocumentTweakProvider(contentsOf: URL(fileURLWithPath: "/nonexistent/tweaks.json"), format: .tweaks)
        }
        #expect(error?.message == "file not found")
    }

    @Test("evaluated documents answer per lookup, and a nil evaluation falls to the providers below")
    func evaluated() throws {
        let mirror = try DocumentTweakProvider(data: Data(), format: MirrorFormat(), name: "mirror")
        let below = EphemeralTweakProvider(name: "below")
        try below.store("fallback", feature: "mirror", variable: "name")
        let manager = TweakManager(tweakProviders: [mirror, below])
        let key = TweakKey("mirror", "name", default: "?")
        #expect(manager.value(for: key, context: ["targetingKey": "abc"]) == "cba")
        #expect(manager.value(for: key) == "fallback")
        // The same without the snapshot cache.
        manager.useCache = false
        #expect(manager.value(for: key, context: ["targetingKey": "abc"]) == "cba")
        #expect(manager.value(for: key) == "fallback")
    }

    @Test("a value stream of an evaluated tweak yields evaluated values after a change, not the listing's")
    func evaluatedStream() async throws {
        let mirror = try DocumentTweakProvider(data: Data(), format: MirrorFormat(), name: "mirror")
        let manager = TweakManager(tweakProviders: [mirror])
        manager.evaluationContext = EvaluationContext(targetingKey: "abc")
        var values = manager.values(for: TweakKey("mirror", "name", default: "?")).makeAsyncIterator()
        #expect(await values.next() == "cba")
        mirror.update(MirrorDocument(suffix: "!"))
        #expect(await values.next() == "cba!")
    }
}
