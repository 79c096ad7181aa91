// TweakKitFlagd's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import TweakKit
import TweakKitFlagd

var flagStore: any FlagDefinitionStore { fatalError("compiled, never run") }
let definition: TweakContent = ["state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off"]
