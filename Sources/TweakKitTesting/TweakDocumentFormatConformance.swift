public import Foundation
import Synchronization
public import TweakKit

/// A document format's whole contract as one runnable check: parsing, recognition, validation,
/// lookups that agree with the listing, refusal of broken input without a crash, and the
/// provider contract (``TweakProviderConformance``) for a `DocumentTweakProvider` serving it.
///
/// ```swift
/// @Test func conforms() async throws {
///     try await TweakDocumentFormatConformance(format: .flagd, sample: Data(flagsJSON.utf8)).run()
/// }
/// ```
public struct TweakDocumentFormatConformance: Sendable {
    /// The format checked.
    public let format: any TweakDocumentFormat
    /// A valid document with at least one tweak.
    public let sample: Data
    /// A second valid document, different from `sample`, for the change checks.
    public let changed: Data?
    /// Whether the format recognizes its documents (`TweakDocumentFormat.recognizes(_:)`).
    public let recognizesSample: Bool

    /// A check of `format` with a valid `sample` document and, for the change checks, a `changed` one.
    public init(format: any TweakDocumentFormat, sample: Data, changed: Data? = nil, recognizesSample: Bool = true) {
        self.format = format
        self.sample = sample
        self.changed = changed
        self.recognizesSample = recognizesSample
    }

    /// Runs every check; throws a ``TweakConformanceFailure`` listing every rule broken.
    public func run() async throws {
        var failures: [String] = []
        let source = "conformance-sample"
        let document: any TweakDocument
        do {
            document = try format.document(from: sample, source: source)
        } catch {
            throw TweakConformanceFailure(provider: format.name, failures: ["the sample was refused: \(error)"])
        }
        let tweaks = document.tweaks(source: source)
        if tweaks.isEmpty && document.evaluatedTweakIDs.isEmpty { failures.append("the sample has no tweaks to check") }
        for tweak in tweaks {
            if tweak.source != source { failures.append("\(tweak.id) names \(tweak.source ?? "no source") as its source, not \(source)") }
            let fixed = document.tweak(tweak.id, source: source)
            // An evaluated tweak may have no fixed value (lookups without a context go below it).
            if fixed == nil && document.evaluatedTweakIDs.contains(tweak.id) { continue }
            if fixed?.content != tweak.content {
                failures.append("tweak(\(tweak.id)) disagrees with tweaks(source:)")
            }
        }
        let unknown = TweakProviderConformance.unusedID(besides: tweaks, also: document.evaluatedTweakIDs)
        if document.tweak(unknown, source: source) != nil || document.evaluate(unknown, context: EvaluationContext(targetingKey: nil)) != nil {
            failures.append("the document answers for \(unknown), which it does not hold")
        }
        if recognizesSample {
            if let root = try? JSONParser.parse(Array(sample)), !format.recognizes(root) {
                failures.append("recognizes(_:) is false for the sample")
            }
        }
        let validation = format.validate(sample, source: source)
        if !validation.problems.isEmpty { failures.append("validate found problems in the sample: \(validation.problems)") }
        failures += refusals(source: source)
        if !failures.isEmpty { throw TweakConformanceFailure(provider: format.name, failures: failures) }

        let provider = try DocumentTweakProvider(data: sample, format: format, name: format.name)
        let samples = [sample, changed ?? sample]
        let turn = Turn()
        try await TweakProviderConformance(provider: provider, change: {
            try provider.update(data: samples[turn.next() % 2])
        }).run()
    }

    /// Broken input (not JSON, cut short, the wrong shape) is refused with an error, never a crash,
    /// and the error says something.
    private func refusals(source: String) -> [String] {
        var failures: [String] = []
        var broken: [Data] = [Data(), Data("not json".utf8), Data("[]".utf8), Data("{\"".utf8)]
        let cuts = Swift.min(sample.count - 1, 64)
        if cuts > 0 {
            for step in 1...cuts { broken.append(sample.prefix(sample.count * step / (cuts + 1))) }
        }
        for data in broken {
            do {
                _ = try format.document(from: data, source: source)
                if data.isEmpty || data == Data("not json".utf8) { failures.append("\(data.count) bytes of non-JSON were accepted") }
            } catch {
                if "\(error)".isEmpty { failures.append("an error without a message for \(data.count) bytes of input") }
            }
            _ = format.validate(data, source: source)
        }
        return failures
    }
}

/// Alternates the documents a change installs.
private final class Turn: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
