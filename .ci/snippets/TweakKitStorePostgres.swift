// TweakKitStorePostgres's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import PostgresNIO
import TweakKitStore
import TweakKitStorePostgres

var store: PostgresTweakStore { fatalError("compiled, never run") }
let url = try! PostgresStoreURL("postgres://tweaks@db.internal/tweaks")
let app = HTTPServer()
