import Foundation
import TweakKit
import TweakKitFlagd
import TweakKitServer

/// flagd definitions covering every OFREP answer: targeting, a split, each type, a disabled and an invalid flag.
let flagdDefinitions = #"""
{
  "flags": {
    "new-checkout": {
      "state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
      "targeting": {"if": [{"==": [{"var": "country"}, "NL"]}, "on", "off"]},
      "metadata": {"team": "payments"}
    },
    "banner": {"state": "ENABLED", "variants": {"short": "Hi", "long": "Hello there"}, "defaultVariant": "short"},
    "checkout.max-items": {
      "state": "ENABLED", "variants": {"few": 5, "many": 50}, "defaultVariant": "few",
      "targeting": {"fractional": [["few", 50], ["many", 50]]}
    },
    "ui.ratio": {"state": "ENABLED", "variants": {"whole": 1.0, "half": 0.5}, "defaultVariant": "whole"},
    "theme": {"state": "ENABLED", "variants": {"dark": {"bg": "black"}, "light": {"bg": "white"}}, "defaultVariant": "light"},
    "retired": {"state": "DISABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"},
    "broken": {"state": "ENABLED", "variants": {"a": 1, "b": "x"}, "defaultVariant": "a"}
  }
}
"""#

let tweaksFile = #"""
{"ui": {"label": {"Title": "Label", "Value": "Hello"}}}
"""#

/// A manager over overrides, the flagd definitions and a tweaks file.
struct Stack {
    let overrides = EphemeralTweakProvider(name: "overrides")
    let flags: DocumentTweakProvider
    let manager: TweakManager

    init() throws {
        flags = try DocumentTweakProvider(data: Data(flagdDefinitions.utf8), format: .flagd, name: "flags.json")
        let local = try LocalTweakProvider(data: Data(tweaksFile.utf8), name: "tweaks.json")
        manager = TweakManager(tweakProviders: [overrides, flags, local])
    }
}

/// The package root, for the Python server's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func jsonObject(_ text: String) throws -> [String: TweakContent] {
    guard case .object(let object) = try TweakContent(jsonText: text) else { throw TweakError.notSupported(.operation("not an object: \(text)")) }
    return object
}
