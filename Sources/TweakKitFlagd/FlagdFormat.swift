public import Foundation
public import TweakKit

extension FlagdDefinitions: TweakDocument {
    public func tweaks(source: String) -> [Tweak] {
        defaultTweaks(source: source)
    }

    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        defaultTweak(id, source: source)
    }

    public func evaluate(_ id: TweakID, context: EvaluationContext) -> TweakEvaluation? {
        evaluate(id, context: context, now: Date())
    }
}

/// flagd flag definitions as a ``TweakDocumentFormat``, for ``DocumentTweakProvider`` and remote
/// providers. A file that is not JSON or has no `flags` object is refused; single invalid flags
/// are kept and evaluate to ERROR (see ``FlagdDefinitions/problems``).
public struct FlagdFormat: TweakDocumentFormat {
    public var name: String { "flagd flag definitions" }

    public init() {}

    public func document(from data: Data, source: String) throws -> any TweakDocument {
        try FlagdDefinitions(data: data, file: source)
    }
}

extension TweakDocumentFormat where Self == FlagdFormat {
    /// OpenFeature flagd flag definitions.
    public static var flagd: FlagdFormat { FlagdFormat() }
}
