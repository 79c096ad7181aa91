/// Why LaunchDarkly flag data could not be read: the place, as a path into the document
/// (`flags.f1.rules[2].clauses[0].op`), and the problem.
///
/// ```swift
/// do {
///     _ = try LaunchDarklyFlags(jsonText: #"{"flags": {"f1": {"on": "yes"}}}"#)
/// } catch {
///     print(error)   // flags.f1.on: must be true or false, found a string
/// }
/// ```
public struct LaunchDarklyDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document: `flags.KEY.rules[2].clauses[0].op`; empty for the document itself.
    public var path: String
    /// What is wrong there.
    public var message: String

    /// An error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
