import Foundation
import Hummingbird
import ServerApp

// Serves on 127.0.0.1:8080 (PORT overrides the port) with the bundled flags.
let port = ProcessInfo.processInfo.environment["PORT"].flatMap(Int.init) ?? 8080
let app = try ServerApp(source: .bundledDefaults).application(port: port)
try await app.runService()
