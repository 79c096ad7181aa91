import Foundation
import Testing
import TweakKit
import TweakKitFirebase

/// The URL of a template in the test bundle's Templates folder.
func templateURL(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Templates"), "missing Templates/\(name).json")
}

/// Parses `json` as a template named "test.json".
func template(_ json: String) throws(TweakFileError) -> FirebaseTemplate {
    try FirebaseTemplate(data: Data(json.utf8), source: "test.json")
}

/// A template whose one condition "c" is `condition` (JSON), and whose parameter "p" is "on" under it, "off" otherwise.
func template(condition: String) throws -> FirebaseTemplate {
    try template("""
    {"conditions": [{"name": "c", "condition": \(condition)}],
     "parameters": {"p": {"defaultValue": {"value": "off"}, "conditionalValues": {"c": {"value": "on"}}}}}
    """)
}

/// Whether `condition` (JSON) holds for `context`, evaluated through a parsed template.
func holds(_ condition: String, _ context: EvaluationContext = EvaluationContext(targetingKey: nil)) throws -> Bool {
    try template(condition: condition).value(forKey: "p", context: context).asString == "on"
}

/// A custom signal condition's JSON.
func signal(_ op: String, _ key: String = "s", _ targets: [String]) -> String {
    let list = targets.map { target in
        "\"" + target.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }.joined(separator: ", ")
    return #"{"customSignal": {"customSignalOperator": "\#(op)", "customSignalKey": "\#(key)", "targetCustomSignalValues": [\#(list)]}}"#
}

/// Whether the custom signal condition holds for the signal `s` = `value` (or no signal for `nil`).
func signalHolds(_ op: String, _ targets: [String], _ value: TweakContent?) throws -> Bool {
    try holds(signal(op, "s", targets), EvaluationContext(attributes: value.map { ["s": $0] } ?? [:]))
}
