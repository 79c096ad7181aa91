// Re-exported: code that imports TweakKitLaunchDarkly uses JSONValue's members (literals,
// `jsonText`, `string`) without importing the support target, which is not a product.
@_exported public import TweakKitEngineSupport

/// A JSON value as LaunchDarkly's SDKs see it: variations, clause values, context attributes.
/// It is the engines' shared JSON value: `null` is kept at every depth, object members stay in
/// the order written, and `1` and `1.0` are told apart (the `in` operator compares them by value).
///
/// ```swift
/// let plan: LaunchDarklyValue = ["tier": "pro", "seats": 12]
/// LaunchDarklyContext(kind: "org", key: "acme", attributes: ["plan": plan])
/// ```
public typealias LaunchDarklyValue = JSONValue
