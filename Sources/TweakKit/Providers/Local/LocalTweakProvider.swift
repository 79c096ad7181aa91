public import Foundation

/// The read-only defaults from a tweaks JSON file (JustTweak's format, or a toggle list).
///
/// ```swift
/// let url = Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!
/// let defaults = try LocalTweakProvider(jsonURL: url)
/// ```
///
/// Several files can be stacked; each reports its file name as the tweaks' source.
/// A missing file, a syntax error, a wrong nesting or a missing or non-scalar `Value` throws a
/// ``TweakFileError`` naming the file, the tweak and, where there is one, the line and column.
/// See ``TweakFileParser`` for the formats.
public final class LocalTweakProvider: DocumentBackedTweakProvider {
    public let name: String
    /// The file the tweaks come from, when they come from a file.
    public let jsonURL: URL?
    /// The file's tweaks.
    public let document: TweakFileDocument
    /// The file never changes under the provider: nothing is ever posted.
    public let changeNotifier = TweakChangeNotifier()

    /// Loads the file at `jsonURL`; `name` defaults to the file's name.
    public convenience init(jsonURL: URL, name: String? = nil) throws(TweakFileError) {
        let source = name ?? jsonURL.lastPathComponent
        let result = TweakFileParser.parse(contentsOf: jsonURL, source: source)
        if let first = result.problems.first { throw first }
        self.init(name: source, url: jsonURL, tweaks: result.tweaks)
    }

    /// Loads tweaks from `data` (for example a bundled resource already in memory).
    public convenience init(data: Data, name: String) throws(TweakFileError) {
        let result = TweakFileParser.parse(data: data, file: name, source: name)
        if let first = result.problems.first { throw first }
        self.init(name: name, url: nil, tweaks: result.tweaks)
    }

    private init(name: String, url: URL?, tweaks: [Tweak]) {
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

    public var currentDocument: (any TweakDocument)? { document }
}
