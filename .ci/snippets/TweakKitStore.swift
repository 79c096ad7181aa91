// TweakKitStore's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKit
import TweakKitMetrics
import TweakKitStore

// A store is opened asynchronously: the examples get one (announcing its changes, as PostgreSQL's does) to compile against.
var store: any StoreChangeAnnouncing { fatalError("compiled, never run") }
var provider: StoreTweakProvider { fatalError("compiled, never run") }
let held: Int64 = 0
func apply(_ changes: [StoredTweakChange]) {}
func catchUp() {}
let sourceMetrics = TweakSourceMetrics()
