public import Foundation

/// A parsed configuration document that answers tweak lookups: a tweaks file, flagd flag
/// definitions, an Optimizely datafile, a Firebase Remote Config template.
///
/// A document is immutable; a new version of the file or payload is a new document. The
/// providers that serve documents — ``DocumentTweakProvider`` for files, `RemoteTweakProvider`
/// over HTTP — swap them whole and keep the last good one when a new one is refused.
///
/// ```swift
/// struct BuildInfoDocument: TweakDocument {
///     var version: String
///     func tweaks(source: String) -> [Tweak] {
///         [Tweak(feature: "build", variable: "version", content: .string(version), source: source)]
///     }
/// }
/// ```
public protocol TweakDocument: Sendable {
    /// Every tweak the document holds, each with the value it has when no targeting applies;
    /// what listings and editors show.
    func tweaks(source: String) -> [Tweak]

    /// One tweak's value for lookups that need no evaluation context; `nil` when the document
    /// has no fixed value for it (the providers below then answer). By default, searches ``tweaks(source:)``.
    func tweak(_ id: TweakID, source: String) -> Tweak?

    /// The tweaks whose value depends on the evaluation context; lookups of these call
    /// ``evaluate(_:context:)``. None by default.
    var evaluatedTweakIDs: [TweakID] { get }

    /// One evaluated tweak for `context`, or `nil` when the document has no answer for it (no such
    /// tweak, or "use the in-app default"); a lookup then takes ``tweak(_:source:)`` and, when that
    /// is `nil` too, the providers below. Never throws: failures are evaluations with reason
    /// ``EvaluationReason/error``.
    func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation?
}

extension TweakDocument {
    /// Searches ``tweaks(source:)`` for `id`.
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        tweaks(source: source).first { $0.id == id }
    }

    /// None: a document without targeting answers every lookup with ``tweak(_:source:)``.
    public var evaluatedTweakIDs: [TweakID] { [] }

    /// `nil`: a document without targeting evaluates nothing.
    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? { nil }
}

/// Turns the bytes of a file or payload into a ``TweakDocument``, refusing anything invalid with
/// an error that says where and what.
///
/// A format is the one thing a new source of tweaks adds: ``DocumentTweakProvider`` and
/// `RemoteTweakProvider` serve its documents, and a remote payload of unknown kind finds its
/// format by ``recognizes(_:)``. How a command-line tool evaluates and prints decisions is the
/// tool's concern, not the format's.
///
/// ```swift
/// let provider = try DocumentTweakProvider(contentsOf: datafileURL, format: .optimizely())
/// ```
///
/// A format that needs no more than a parser implements ``name`` and ``document(from:source:)``;
/// the rest have defaults. See <doc:AddingASource> for the whole recipe.
public protocol TweakDocumentFormat: Sendable {
    /// A short name for messages ("Optimizely datafile").
    var name: String { get }

    /// Parses `data`; `source` names the file or URL in error messages.
    func document(from data: Data, source: String) throws -> any TweakDocument

    /// Whether a JSON document looks like this format, so a file or payload of unknown kind goes
    /// to the right parser. `false` by default.
    func recognizes(_ root: JSONNode) -> Bool

    /// Checks `data` and lists every problem with its place; a format that keeps a document
    /// with problems (flagd keeps the other flags) lists them all. By default, the parser's error.
    func validate(_ data: Data, source: String) -> TweakDocumentValidation
}

extension TweakDocumentFormat {
    /// `false`: the format is chosen explicitly.
    public func recognizes(_ root: JSONNode) -> Bool { false }

    /// Parses `data` and reports the number of tweaks, or the parser's error as the one problem.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            let document = try document(from: data, source: source)
            return TweakDocumentValidation(count: document.tweaks(source: source).count, noun: "tweaks")
        } catch let error as TweakFileError {
            return TweakDocumentValidation(count: 0, noun: "tweaks", problems: [error])
        } catch {
            return TweakDocumentValidation(count: 0, noun: "tweaks", problems: [TweakFileError(file: source, message: "\(error)")])
        }
    }
}

/// The outcome of ``TweakDocumentFormat/validate(_:source:)``: how many items the file holds
/// (`noun` says what they are: "tweaks", "flagd flags") and every problem found.
public struct TweakDocumentValidation: Sendable {
    /// How many items the document holds.
    public var count: Int
    /// What the items are, for messages: "tweaks", "flagd flags".
    public var noun: String
    /// Every problem found, each with its file and place; empty when the document is valid.
    public var problems: [TweakFileError]

    /// Creates a validation result.
    public init(count: Int, noun: String, problems: [TweakFileError] = []) {
        self.count = count
        self.noun = noun
        self.problems = problems
    }
}
