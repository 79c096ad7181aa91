/// Why a GrowthBook payload, experiment or context was refused: where (the source and the JSON
/// path) and what.
///
/// ```swift
/// do { _ = try GrowthBookPayload(data: data, source: "features.json") }
/// catch let error as GrowthBookPayloadError { print(error) }
/// // features.json: features.checkout.rules[0].coverage: expected a number, found a String
/// ```
public struct GrowthBookPayloadError: Error, Hashable, CustomStringConvertible {
    /// The file or URL.
    public var source: String
    /// The JSON path of the bad value (`features.checkout.rules[0]`); empty for the whole document.
    public var path: String
    /// What is wrong.
    public var message: String

    /// An error at `path` of `source`.
    public init(source: String, path: String, message: String) {
        self.source = source
        self.path = path
        self.message = message
    }

    /// `source: path: message`.
    public var description: String {
        path.isEmpty ? "\(source): \(message)" : "\(source): \(path): \(message)"
    }
}
