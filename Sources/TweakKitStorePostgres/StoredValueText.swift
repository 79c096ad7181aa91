import TweakKit
import TweakKitStore

/// A tweak value as two text columns: its kind (`Bool`, `Int`, `Float`, `Double`, `String`, `Array`,
/// `Object`) and its JSON text. The kind keeps what JSON alone loses: a `Float` from a `Double`.
struct StoredValueText: Sendable, Hashable {
    var kind: String
    var json: String

    init(_ value: TweakContent) throws {
        kind = value.kind.rawValue
        json = try value.jsonText()
    }

    init(kind: String, json: String) {
        self.kind = kind
        self.json = json
    }

    /// The value back, or `.notATweakStore` naming the row when the columns do not hold one.
    func content(at place: @autoclosure () -> String) throws(SharedTweakStoreError) -> TweakContent {
        guard let kind = TweakContent.Kind(rawValue: kind) else {
            throw .notATweakStore("\(place()): unknown value kind '\(self.kind)'")
        }
        let parsed: TweakContent
        do {
            parsed = try TweakContent(jsonText: json)
        } catch {
            throw .notATweakStore("\(place()): the value is not JSON (\(error))")
        }
        switch (kind, parsed) {
        case (.float, .double(let number)): return .float(Float(number))
        case (.float, .int(let number)): return .float(Float(number))
        case (.double, .int(let number)): return .double(Double(number))
        default:
            guard parsed.kind == kind else {
                throw .notATweakStore("\(place()): the value \(json) is not of kind \(kind)")
            }
            return parsed
        }
    }
}
