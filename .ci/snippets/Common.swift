// What the examples take from their surroundings, for every scope (.ci/snippets.py): the app's
// providers and manager, files, keys and tokens, and stand-ins for the app's own objects (a user,
// a request, an analytics client, a view). Compiled, never run.
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TweakKit

// The app's tweak stack.
let defaults = try! LocalTweakProvider(fileURL: URL(filePath: "Tweaks.json"))
let bundledDefaults = defaults
let inAppDefaults = defaults
let localProvider = defaults
let overrides = try! PersistentTweakProvider(fileURL: URL(filePath: "overrides.json"))
let providers: [any TweakProvider] = [overrides, defaults]
let manager = TweakManager(tweakProviders: providers)
let sharedManager = manager
let screenOverrides = EphemeralTweakProvider()

// Typed keys the examples read.
extension TweakKey where Value == Bool {
    static let newCheckout = TweakKey("checkout", "new_flow", default: false)
    static let redView = TweakKey("ui_customization", "display_red_view", default: false)
}
extension TweakKey where Value == Double {
    static let redViewAlpha = TweakKey("ui_customization", "red_view_alpha_component", default: 1.0)
}

// Files, downloaded or bundled.
let defaultsURL = URL(filePath: "Tweaks.json")
let tweaksURL = URL(filePath: "Tweaks.json")
let overridesURL = URL(filePath: "overrides.json")
let datafileURL = URL(filePath: "datafile.json")
let templateURL = URL(filePath: "template.json")
let featuresURL = URL(filePath: "features.json")
let payloadURL = URL(filePath: "features.json")
let cachesURL = URL(filePath: "/var/cache/myapp")
let unleashURL = URL(string: "https://unleash.example.com/api")!
let serverURL = unleashURL
let data = Data()
let body = Data()
let sampleData = Data()
let otherData = Data()
let deltaData = Data()
let deltaPayload = Data()
let flagsJSON = "{}"

// Secrets and ids.
let token = "s3cret"
let apiKey = "k3y"
let sdkKey = "sdk-key"
let clientKey = "client-key"
let key = "Zvwv/+uhpFDznZ6SX28Yjg=="
let installationID = "installation-1"

struct User: Sendable { var id = "user-42" }
let user = User()
struct Request: Sendable { var userID = "user-42" }
let request = Request()

/// An access token source, as an app's auth library gives one.
struct Tokens: Sendable {
    func accessToken() async throws -> String { "token" }
    func current() async throws -> String { "token" }
}
let tokens = Tokens()

/// An analytics client, with the calls the examples make.
struct Analytics: Sendable {
    func track(experiment: Any?, variation: Any?) {}
    func track(flag: Any?, variation: Any?, rule: Any?) {}
    func track(flag: Any?, variant: Any?, reason: Any?) {}
    func track(_ id: Any?, _ variant: Any?, _ reason: Any?) {}
    func track(_ event: String, _ properties: [String: String]) {}
}
let analytics = Analytics()

/// A UI view, as UIKit's.
final class View: @unchecked Sendable {
    var isHidden = false
    var alpha = 1.0
}
let redView = View()

// A server's pieces.
nonisolated(unsafe) let router = Router()
struct HTTPServer: Service { func run() async throws {} }
let httpServer = HTTPServer()
let logger = Logger(label: "app")
