/// The largest inputs TweakKit reads, so a huge or hostile file is refused with a clear error
/// instead of costing gigabytes of memory (parsing keeps every value with its source position, so
/// a document costs many times its size while it loads).
///
/// Each format checks its own limit where it turns bytes into JSON; the shared file reader refuses
/// anything larger than ``fileSize`` before reading it. The vendor formats state theirs next to
/// their types (`FlagdDefinitions.maximumInputSize`, `OptimizelyDatafile.maximumInputSize`,
/// `FirebaseTemplate.maximumInputSize`); remote payloads are bounded by
/// `RemoteConfiguration.maximumPayloadSize`.
///
/// ```swift
/// let provider = try LocalTweakProvider(fileURL: url)
/// // a 50 MB file throws: "Tweaks.json: the input is 52428800 bytes, more than the 16 MiB limit for a tweaks file"
/// ```
public enum TweakInputLimits {
    /// A tweaks file (JustTweak format or toggle list): 16 MiB (100,000 tweaks with titles take
    /// about 12 MB).
    public static let tweaksFile = 16 << 20
    /// The overrides file of ``PersistentTweakProvider``: 4 MiB.
    public static let overridesFile = 4 << 20
    /// Any file read through TweakKit's file reader, whatever its format: 16 MiB, the largest
    /// per-format limit (Optimizely datafiles).
    public static let fileSize = 16 << 20
    /// JSON arrays and objects nest at most this deep; deeper input is a syntax error, not a stack overflow.
    public static let jsonNestingDepth = 512

    /// The error for `size` bytes of input (unknown when the reading stopped at the limit) over
    /// `limit`, naming `file` and what it is.
    package static func tooLarge(file: String, size: Int?, limit: Int, what: String) -> TweakFileError {
        let input = size.map { "the input is \($0) bytes" } ?? "the input is larger than \(limit) bytes"
        return TweakFileError(file: file, message: "\(input), more than the \(describe(limit)) limit for \(what)")
    }

    /// `4 MiB`, or the byte count for limits that are not whole mebibytes.
    package static func describe(_ limit: Int) -> String {
        limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit)-byte"
    }
}
