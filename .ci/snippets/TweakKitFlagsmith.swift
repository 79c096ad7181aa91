// TweakKitFlagsmith's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKitFlagsmith

let documentData = Data()
let environmentDocumentURL = URL(filePath: "environment.json")
let url = environmentDocumentURL
let environment = try! FlagsmithEnvironment(environmentDocument: documentData, source: "environment.json")
let identity = FlagsmithIdentity(identifier: "user-1")
