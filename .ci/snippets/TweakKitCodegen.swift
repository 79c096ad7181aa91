// TweakKitCodegen's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import TweakKitCodegen

let config = GeneratorConfiguration(accessorName: "AppTweaks")
