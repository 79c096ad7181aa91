public import Foundation

/// The read-only defaults from a tweaks JSON file (JustTweak's format, or a toggle list).
///
/// ```swift
/// let url = Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!
/// let defaults = try LocalTweakProvider(fileURL: url)
/// ```
///
/// Several files can be stacked; each reports its file name as the tweaks' source.
/// A missing file, a syntax error, a wrong nesting or a missing or non-scalar `Value` throws a
/// ``TweakFileError`` naming the file, the tweak and, where there is one, the line and column.
/// See ``TweakFileParser`` for the formats.
public final class LocalTweakProvider: DocumentBackedTweakProvider {
    /// The source shown on the provider's tweaks: the file's name, unless another was given.
    public let name: String
    /// The file the tweaks come from, when they come from a file.
    public let jsonURL: URL?
    /// The file's tweaks.
    public let document: TweakFileDocument
    private let notifier = TweakChangeNotifier()

    /// Loads the file at `fileURL`; `name` defaults to the file's name.
    public convenience init(fileURL: URL, name: String? = nil) throws(TweakFileError) {
        let source = name ?? fileURL.lastPathComponent
        let result = TweakFileParser.tweaks(contentsOf: fileURL, source: source)
        if let first = result.problems.first { throw first }
        self.init(name: source, url: fileURL, tweaks: result.tweaks)
    }

    /// Loads tweaks from `data` (for example a bundled resource already in memory).
    public convenience init(data: Data, name: String) throws(TweakFileError) {
        let result = TweakFileParser.tweaks(data: data, file: name, source: name)
        if let first = result.problems.first { throw first }
        self.init(name: name, url: nil, tweaks: result.tweaks)
    }

    package init(name: String, url: URL?, tweaks: [Tweak]) {
        self.name = name
        self.jsonURL = url
        self.document = TweakFileDocument(tweaks: tweaks)
    }

    /// Every feature with its variables, in file order.
    public var features: [String: [String]] {
        var features: [String: [String]] = [:]
        for tweak in document.definitions {
            features[tweak.feature, default: []].append(tweak.variable)
        }
        return features
    }

    /// The file's tweaks; never `nil`.
    public var currentDocument: (any TweakDocument)? { document }

    /// The file never changes under the provider: nothing is ever posted here.
    public var changeNotifier: TweakChangeNotifier { notifier }

    /// Every tweak of the file, in file order, marked with ``name`` as their source.
    public func allTweaks() -> [Tweak] {
        document.tweaks(source: name)
    }

    /// The file's tweak; throws ``TweakError/notFound(feature:variable:)`` when the file has none.
    public func tweakWith(feature: String, variable: String) throws -> Tweak {
        guard let tweak = document.tweak(TweakID(feature: feature, variable: variable), source: name) else {
            throw TweakError.notFound(feature: feature, variable: variable)
        }
        return tweak
    }
}
