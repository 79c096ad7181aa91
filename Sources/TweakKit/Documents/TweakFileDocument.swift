public import Foundation

/// A tweaks file (JustTweak's format) as a ``TweakDocument``: fixed values, no targeting.
public struct TweakFileDocument: TweakDocument {
    /// The file's tweaks, in the order they were written.
    public let definitions: [Tweak]
    private let index: TweakPositions

    /// Creates a document holding `tweaks`.
    ///
    /// ```swift
    /// let document = TweakFileDocument(tweaks: [Tweak(feature: "checkout", variable: "enabled", content: true)])
    /// let provider = DocumentTweakProvider(document: document, format: .tweaks, name: "built-in")
    /// ```
    public init(tweaks: [Tweak]) {
        definitions = tweaks
        index = TweakPositions(tweaks)
    }

    /// Every tweak, marked with `source`. A tweak already marked so is shared, not copied.
    public func tweaks(source: String) -> [Tweak] {
        definitions.map { $0.source == source ? $0 : $0.with(content: $0.content, source: source) }
    }

    /// The tweak `id`, marked with `source`; `nil` when the file has none.
    public func tweak(_ id: TweakID, source: String) -> Tweak? {
        guard let offset = index.position(of: id, in: definitions) else { return nil }
        let tweak = definitions[offset]
        return tweak.source == source ? tweak : tweak.with(content: tweak.content, source: source)
    }
}

/// Where each tweak of a document is, by id: the last of its tweaks with that id.
///
/// An open-addressing table of 8-byte entries — a tweak's position and 32 bits of its id's hash —
/// into the document's tweaks, which hold the ids: a `[TweakID: Int]` stores both names again with
/// each position (40 bytes an entry, 53 to 107 bytes a tweak as it fills) where this takes 11 to 21
/// (see `Benchmarks/tweaks-file-memory.sh`). The hash bits spare a probe the reading of a tweak
/// whose id cannot match, a cache miss each on a large file.
private struct TweakPositions: Sendable {
    /// The hash's high 32 bits, then position + 1 of a tweak; 0 for an empty bucket.
    private let buckets: [UInt64]
    private let mask: Int

    init(_ tweaks: [Tweak]) {
        precondition(tweaks.count < Int(UInt32.max), "too many tweaks for one document")
        // At most 3/4 full, so a probe ends soon.
        var capacity = 8
        while capacity * 3 < tweaks.count * 4 { capacity *= 2 }
        var buckets = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for (offset, tweak) in tweaks.enumerated() {
            let id = tweak.id
            let hash = id.hashValue
            let tag = Self.tag(hash)
            var bucket = hash & mask
            while buckets[bucket] != 0,
                  buckets[bucket] >> 32 != tag || tweaks[Self.position(buckets[bucket])].id != id {
                bucket = (bucket + 1) & mask
            }
            buckets[bucket] = tag << 32 | UInt64(offset + 1)
        }
        self.buckets = buckets
        self.mask = mask
    }

    /// The position of the last tweak with `id` in `tweaks` (the tweaks the table was made from).
    func position(of id: TweakID, in tweaks: [Tweak]) -> Int? {
        let hash = id.hashValue
        let tag = Self.tag(hash)
        var bucket = hash & mask
        while buckets[bucket] != 0 {
            if buckets[bucket] >> 32 == tag {
                let offset = Self.position(buckets[bucket])
                if tweaks[offset].id == id { return offset }
            }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(UInt(bitPattern: hash) >> (UInt.bitWidth - 32))
    }

    private static func position(_ bucket: UInt64) -> Int {
        Int(bucket & 0xFFFF_FFFF) - 1
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
