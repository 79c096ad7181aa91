public import TweakKit

/// Who an Unleash toggle is decided for, with Unleash's context fields.
///
/// ```swift
/// let context = UnleashContext(userId: "user-1", appName: "checkout", properties: ["tenant": "acme"])
/// features.isEnabled("new-checkout", context: context)
/// ```
///
/// From a TweakKit `EvaluationContext` (``init(_:)``): the targeting key is `userId`; the
/// attributes `sessionId`, `remoteAddress`, `environment`, `appName` and `currentTime` are those
/// fields; an attribute `properties` (an object) and every other attribute become properties,
/// written as text (`5`, `true`) the way Unleash's SDKs hand them to their engine.
public struct UnleashContext: Sendable, Hashable {
    /// The user: the stickiness of default rollouts and variants, and `userWithId`'s list.
    public var userId: String?
    /// The session: the stickiness when there is no user id.
    public var sessionId: String?
    /// The client's IP address, for `remoteAddress` strategies and `IN_CIDR`.
    public var remoteAddress: String?
    /// The environment the app runs in.
    public var environment: String?
    /// The app's name.
    public var appName: String?
    /// An RFC 3339 time for `DATE_*` constraints; the current time when `nil`.
    public var currentTime: String?
    /// Custom context fields.
    public var properties: [String: String]

    /// A context from its fields.
    public init(
        userId: String? = nil, sessionId: String? = nil, remoteAddress: String? = nil, environment: String? = nil,
        appName: String? = nil, currentTime: String? = nil, properties: [String: String] = [:]
    ) {
        self.userId = userId
        self.sessionId = sessionId
        self.remoteAddress = remoteAddress
        self.environment = environment
        self.appName = appName
        self.currentTime = currentTime
        self.properties = properties
    }

    /// The Unleash context for a TweakKit evaluation context (see the type's documentation).
    public init(_ context: EvaluationContext) {
        var fields: [String: TweakContent] = context.attributes
        if let key = context.targetingKey { fields["userId"] = .string(key) }
        self.init(fields: fields)
    }

    /// A context from a JSON object with Unleash's field names, as the SDKs read one: the known
    /// fields at the top level (or inside `properties`), numbers and booleans as text, and any
    /// other top-level text field as a property.
    ///
    /// ```swift
    /// UnleashContext(fields: ["userId": "u1", "properties": ["plan": "pro"]])
    /// ```
    public init(fields: [String: TweakContent]) {
        var raw = fields
        var properties: [String: String] = [:]
        if case .object(let members)? = raw.removeValue(forKey: "properties") {
            for (key, value) in members {
                if let text = Self.text(value) { properties[key] = text }
            }
        }
        func take(_ key: String) -> String? {
            if let value = raw.removeValue(forKey: key) { return Self.text(value) }
            return properties.removeValue(forKey: key)
        }
        userId = take("userId")
        sessionId = take("sessionId")
        environment = take("environment")
        appName = take("appName")
        currentTime = take("currentTime")
        remoteAddress = take("remoteAddress")
        for (key, value) in raw {
            properties[key] = Self.text(value)
        }
        self.properties = properties
    }

    /// Text as Unleash's engine reads a context value; `nil` for arrays and objects.
    static func text(_ value: TweakContent) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .double(let number): number.description
        case .float(let number): Double(number).description
        case .array, .object, .null: nil
        }
    }
}
