// TweakKitOptimizely's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation

let url = URL(filePath: "datafile.json")
