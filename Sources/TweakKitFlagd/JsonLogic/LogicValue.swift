// Re-exported: code that imports TweakKitFlagd uses LogicValue's members (literals,
// `isJsonLogicTruthy`, `javaScriptString`) without importing the support target, which is not a product.
@_exported public import TweakKitEngineSupport
public import TweakKit

/// A JSON value as JsonLogic sees it: the engines' shared JSON value, with `null` at every depth.
///
/// JsonLogic's numbers are JavaScript's: an `.int` and a `.double` are the same number to every
/// operation (`{"===": [1, 1.0]}` is true), and a targeting rule's variant name `3.0` is `"3"`.
/// JsonLogic's truthiness is `isJsonLogicTruthy` (an empty array is false), not
/// JavaScript's `isTruthy`.
///
/// ```swift
/// let data = LogicValue(TweakContent.object(["plan": "pro", "seats": 3]))
/// data["seats"]                                   // .int(3)
/// LogicValue.array([]).isJsonLogicTruthy          // false
/// LogicValue.double(3).tweakValue                 // .int(3)
/// ```
public typealias LogicValue = JSONValue

extension JSONValue {
    /// Converts back to a tweak value as JsonLogic's numbers read: a bare `null` has none, a
    /// `null` inside an array or object stays `TweakContent.null`, and whole numbers become Ints.
    ///
    /// ```swift
    /// LogicValue.array([2.0, 2.5, .null]).tweakValue   // .array([.int(2), .double(2.5), .null])
    /// ```
    public var tweakValue: TweakContent? {
        tweakContent(wholeDoublesAsInts: true)
    }
}
