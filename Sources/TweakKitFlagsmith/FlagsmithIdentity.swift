public import TweakKit
public import TweakKitEngineSupport

/// A Flagsmith identity: its identifier and traits, what segment conditions read.
///
/// ```swift
/// let identity = FlagsmithIdentity(identifier: "user-1", traits: ["plan": "pro", "age": 42])
/// let flag = environment.flag("new-checkout", for: identity)
/// ```
///
/// Traits are read as Flagsmith's engine reads them: a string of digits (`"42"`) is an integer,
/// of digits with a fraction (`"1.5"`) a float; a list or object is compared as Python writes it.
public struct FlagsmithIdentity: Sendable {
    /// The identity's identifier.
    public var identifier: String
    /// The key percentage splits hash; `nil` (or empty) means `<environment key>_<identifier>`.
    public var key: String?
    /// The traits as given.
    public var traits: [String: FlagsmithValue] {
        didSet { readTraits = Self.read(traits) }
    }
    /// Each trait as conditions read it (`nil`: the trait is null).
    private(set) var readTraits: [String: ContextValue?]

    /// An identity with `traits`.
    ///
    /// ```swift
    /// FlagsmithIdentity(identifier: "user-1", traits: ["country": "NL"])
    /// ```
    public init(identifier: String, key: String? = nil, traits: [String: FlagsmithValue] = [:]) {
        self.identifier = identifier
        self.key = key
        self.traits = traits
        self.readTraits = Self.read(traits)
    }

    /// The identity of a TweakKit evaluation context: the targeting key is the identifier, the
    /// attributes are the traits; `nil` without a targeting key (the environment's flags).
    ///
    /// ```swift
    /// FlagsmithIdentity(EvaluationContext(targetingKey: "user-1", attributes: ["plan": "pro"]))?.traits["plan"]   // "pro"
    /// ```
    public init?(_ context: EvaluationContext) {
        guard let identifier = context.targetingKey else { return nil }
        self.init(identifier: identifier, traits: context.attributes.mapValues { JSONValue($0) })
    }

    private static func read(_ traits: [String: FlagsmithValue]) -> [String: ContextValue?] {
        traits.mapValues { ContextValue.map($0) }
    }

    /// The key to hash, for an environment whose key is `environmentKey`.
    func hashKey(environmentKey: String) -> String {
        if let key, !key.isEmpty { return key }
        return environmentKey + "_" + identifier
    }
}

/// A flag's value or a trait's: JSON with null, integers apart from floats.
///
/// ```swift
/// let value: FlagsmithValue = ["colour": "blue", "size": 3]
/// ```
public typealias FlagsmithValue = JSONValue
