package import Foundation

/// A problem in a tweaks file, saying where and what.
///
/// Its description reads like a compiler diagnostic:
/// `Tweaks.json:12:18: ui_customization.label_text: "Value" is missing`.
public struct TweakFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path (or the name given for in-memory data).
    public var file: String
    /// Where in the file, when the problem has a place.
    public var location: SourceLocation?
    /// The feature the problem is in, if any.
    public var feature: String?
    /// The variable the problem is in, if any.
    public var variable: String?
    /// What is wrong.
    public var message: String

    /// Creates an error in `file`, at `location` and in `feature.variable` when the problem has them.
    ///
    /// ```swift
    /// TweakFileError(file: "Tweaks.json", location: SourceLocation(line: 12, column: 18),
    ///                feature: "ui_customization", variable: "label_text", message: "\"Value\" is missing")
    /// // Tweaks.json:12:18: ui_customization.label_text: "Value" is missing
    /// ```
    public init(file: String, location: SourceLocation? = nil, feature: String? = nil, variable: String? = nil, message: String) {
        self.file = file
        self.location = location
        self.feature = feature
        self.variable = variable
        self.message = message
    }

    /// `file:line:column: feature.variable: message`, leaving out what the problem does not have.
    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": "
        switch (feature, variable) {
        case let (feature?, variable?): text += "\(feature).\(variable): "
        case let (feature?, nil): text += "\(feature): "
        default: break
        }
        return text + message
    }
}

extension TweakFileError {
    /// Parses `data` as JSON, or throws an error with the place of the syntax error and
    /// `"<problem>: <what the parser found>"`. Input larger than `maximumSize` bytes is refused
    /// before parsing, as `what` (`"a tweaks file"`) in the message.
    package static func json(
        from data: Data, file: String, problem: String = "syntax error",
        maximumSize: Int = TweakInputLimits.fileSize, what: String = "a TweakKit input"
    ) throws(TweakFileError) -> JSONNode {
        guard data.count <= maximumSize else {
            throw TweakInputLimits.tooLarge(file: file, size: data.count, limit: maximumSize, what: what)
        }
        do {
            return try JSONParser.parse(Array(data), maximumDepth: TweakInputLimits.jsonNestingDepth)
        } catch {
            throw TweakFileError(file: file, location: error.location, message: "\(problem): \(error.message)")
        }
    }

    /// Reads the file at `url`, or throws an error that says which file and why it could not be
    /// read. A file larger than `maximumSize` bytes is refused without being read whole.
    package static func contents(of url: URL, maximumSize: Int = TweakInputLimits.fileSize) throws(TweakFileError) -> Data {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte more than allowed tells a file at the limit from a larger one.
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            let message = FileManager.default.fileExists(atPath: url.path)
                ? "cannot read the file: \(error.localizedDescription)"
                : "file not found"
            throw TweakFileError(file: url.path, message: message)
        }
        guard data.count <= maximumSize else {
            throw TweakInputLimits.tooLarge(file: url.path, size: nil, limit: maximumSize, what: "a file TweakKit reads")
        }
        return data
    }
}
