extension TweakContent {
    /// Parses JSON text losslessly: `1` is an Int, `1.0` a Double.
    ///
    /// ```swift
    /// let value = try TweakContent(jsonText: #"{"ratio": 1.0, "count": 1}"#)
    /// // .object(["ratio": .double(1.0), "count": .int(1)])
    /// ```
    /// - Throws: ``JSONSyntaxError`` with line and column, or when the text is `null`.
    public init(jsonText: String) throws(JSONSyntaxError) {
        let node = try JSONParser.parse(Array(jsonText.utf8))
        guard let value = node.tweakValue else {
            throw JSONSyntaxError(message: "null is not a tweak value", location: node.location)
        }
        self = value
    }

    /// The value as JSON text that ``init(jsonText:)`` reads back to an equal value
    /// (a whole Double is written `2.0`, not `2`). Object keys are sorted.
    ///
    /// - Throws: when the value holds a NaN or infinite number, which JSON cannot express.
    public func jsonText(prettyPrinted: Bool = false) throws -> String {
        try JSONWriter.string(self, indent: prettyPrinted ? 2 : 0)
    }
}
