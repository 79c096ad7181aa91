// TweakKitRemote's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKit
import TweakKitRemote

nonisolated(unsafe) var configuration = RemoteConfiguration(url: URL(string: "https://config.example.com/tweaks.json")!)
let remote = RemoteTweakProvider(configuration: configuration)
let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!))
let ofrepConfiguration = OFREPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
let url = URL(string: "https://config.example.com/tweaks.json")!
let streamURL = URL(string: "https://config.example.com/tweaks/events")!
let transport = URLSessionTransport.shared
let replicaURL = URL(string: "http://127.0.0.1:8080")!
