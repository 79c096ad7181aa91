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
///         [Tweak(feature: "build", variable: "version", value: .string(version), source: source)]
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
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        tweaks(source: source).first { $0.id == id }
    }

    public var evaluatedTweakIDs: [TweakID] { [] }

    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? { nil }
}

/// Turns the bytes of a file or payload into a ``TweakDocument``, refusing anything invalid with
/// an error that says where and what.
///
/// ```swift
/// let provider = try DocumentTweakProvider(contentsOf: datafileURL, format: .optimizely())
/// ```
public protocol TweakDocumentFormat: Sendable {
    /// A short name for messages ("Optimizely datafile").
    var name: String { get }

    /// Parses `data`; `source` names the file or URL in error messages.
    func document(from data: Data, source: String) throws -> any TweakDocument
}
