/// A JSON document that is not well formed, with the place of the first problem.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var message: String
    /// Where the problem starts.
    public var location: SourceLocation

    /// Creates an error for the problem `message` at `location`.
    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}
