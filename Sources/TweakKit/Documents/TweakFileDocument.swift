public import Foundation

/// A tweaks file (JustTweak's format) as a ``TweakDocument``: fixed values, no targeting.
public struct TweakFileDocument: TweakDocument {
    /// The file's tweaks, in the order they were written.
    public let definitions: [Tweak]
    private let index: LazyTweakPositions

    /// Creates a document holding `tweaks`.
    ///
    /// ```swift
    /// let document = TweakFileDocument(tweaks: [Tweak(feature: "checkout", variable: "enabled", content: true)])
    /// let provider = DocumentTweakProvider(document: document, format: .tweaks, name: "built-in")
    /// ```
    public init(tweaks: [Tweak]) {
        definitions = tweaks
        index = LazyTweakPositions()
    }

    /// Every tweak, marked with `source`. A tweak already marked so is shared, not copied; when
    /// all are (a file's provider reads it with its name as the source), the array itself is
    /// (measured: the copy was 2 % of `tweak list` on a 16 MB file, 788,000 tweaks).
    public func tweaks(source: String) -> [Tweak] {
        if definitions.allSatisfy({ $0.source == source }) { return definitions }
        return definitions.map { $0.source == source ? $0 : $0.with(content: $0.content, source: source) }
    }

    /// The tweak `id`, marked with `source`; `nil` when the file has none.
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        guard let offset = index.position(of: id, in: definitions) else { return nil }
        let tweak = definitions[offset]
        return tweak.source == source ? tweak : tweak.with(content: tweak.content, source: source)
    }
}

/// The tweaks file format: `{ "feature": { "variable": { "Title": …, "Value": … } } }`, or
/// `{ "featureToggles": [ … ] }`. A file with any problem is refused, with the first problem.
public struct TweakFileFormat: TweakDocumentFormat {
    /// "tweaks file".
    public var name: String { "tweaks file" }

    /// Creates the format; ``TweakDocumentFormat/tweaks`` is the same.
    public init() {}

    /// Parses a tweaks file, refusing it with the first problem (a ``TweakFileError`` with line and column).
    public func document(from data: Data, source: String) throws -> any TweakDocument {
        let result = TweakFileParser.tweaks(data: data, file: source, source: source, syntaxProblem: "not valid JSON")
        return try document(tweaks: result.tweaks, problems: result.problems)
    }

    /// Any JSON object: a tweaks file is what a file is when no other format claims it, so it goes
    /// last in a list of formats.
    public func recognizes(_ root: JSONNode) -> Bool {
        root.members != nil
    }

    /// Every problem of the file, each with its place.
    public func validate(_ data: Data, source: String) -> TweakDocumentValidation {
        do {
            let root = try TweakFileError.json(from: data, file: source)
            let result = TweakFileParser.parse(root: root, file: source, source: source)
            return TweakDocumentValidation(count: result.tweaks.count, noun: "tweaks", problems: result.problems)
        } catch {
            return TweakDocumentValidation(count: 0, noun: "tweaks", problems: [error])
        }
    }

    package func document(root: JSONNode, source: String) throws(TweakFileError) -> TweakFileDocument {
        let result = TweakFileParser.parse(root: root, file: source, source: source)
        return try document(tweaks: result.tweaks, problems: result.problems)
    }

    private func document(tweaks: [Tweak], problems: [TweakFileError]) throws(TweakFileError) -> TweakFileDocument {
        if var problem = problems.first {
            if problems.count > 1 { problem.message += " (and \(problems.count - 1) more problems)" }
            throw problem
        }
        return TweakFileDocument(tweaks: tweaks)
    }
}

extension TweakDocumentFormat where Self == TweakFileFormat {
    /// JustTweak's tweaks file format.
    public static var tweaks: TweakFileFormat { TweakFileFormat() }
}
