// Re-exported: code that imports TweakKitGrowthBook uses GrowthBookValue's members (literals,
// `jsonText`, `isTruthy`) without importing the support target, which is not a product.
@_exported public import TweakKitEngineSupport

/// A JSON value as GrowthBook's SDKs see it: attributes, feature values, variations and
/// conditions. It is the engines' shared JSON value: `null` is kept at every depth, object
/// members stay in the order written (conditions compare objects the way `JSON.stringify`
/// writes them), and `1` and `1.0` are told apart but equal in every comparison.
///
/// ```swift
/// let attributes: GrowthBookValue = ["id": "user-1", "age": 42, "tags": ["beta", .null]]
/// attributes["age"]                        // .int(42)
/// GrowthBookValue.int(1) == .double(1.0)   // false (Hashable identity); conditions treat them as equal
/// ```
public typealias GrowthBookValue = JSONValue

/// One `"key": value` member of a ``GrowthBookValue`` object.
public typealias GrowthBookMember = JSONValue.Member
