// The code of JustTweak 10.1.1's README (seed 002), with `import JustTweak` as published.
//
// Each block between `// README:` and `// END README` is the README's code as published. Where the
// README has Xcode placeholders (`<#feature_key#>`) or a body that is only a comment (where the
// reader's code goes), the values of this test are filled in, and nothing else is changed. Two
// exceptions, each said where it is: the notification snippet's observer registration (the
// README's `#selector`/`@objc` form needs the Objective-C runtime, which Linux lacks), and the
// `TweakViewController` snippet, which is UIKit and not part of TweakKit.
import Foundation
import Synchronization
import Testing
import JustTweak

// The README loads its JSON from the app bundle; in this test the "app bundle" is this target's
// Resources folder.
private enum Bundle {
    static let main = ReadmeAppBundle()
}

private struct ReadmeAppBundle {
    func url(forResource name: String, withExtension ext: String) -> URL? {
        Foundation.Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources")
    }
}

/// The example app's remote providers are app code in JustTweak too (its Example folder), not part
/// of the framework. These stand-ins hold no tweaks, as a remote provider before its first fetch.
final class OptimizelyTweakProvider: TweakProvider {
    var logClosure: LogClosure?
    var decryptionClosure: ((Tweak) -> TweakValue)?
    var userId: String?
    func isFeatureEnabled(_ feature: String) -> Bool { false }
    func tweakWith(feature: String, variable: String) throws -> Tweak { throw TweakError.notFound }
}

/// See ``OptimizelyTweakProvider``.
final class FirebaseTweakProvider: TweakProvider {
    var logClosure: LogClosure?
    var decryptionClosure: ((Tweak) -> TweakValue)?
    func isFeatureEnabled(_ feature: String) -> Bool { false }
    func tweakWith(feature: String, variable: String) throws -> Tweak { throw TweakError.notFound }
}

enum ReadmeStack {
    // README: Manual integration
    static let tweakManager: TweakManager = {
        var tweakProviders: [TweakProvider] = []

        // Mutable TweakProvider (to override tweaks from other TweakProviders)
        let userDefaultsTweakProvider = UserDefaultsTweakProvider(userDefaults: UserDefaults.standard)
        tweakProviders.append(userDefaultsTweakProvider)
        
        // Optimizely (remote TweakProvider)
        let optimizelyTweakProvider = OptimizelyTweakProvider()
        optimizelyTweakProvider.userId = UUID().uuidString
        tweakProviders.append(optimizelyTweakProvider)

        // Firebase Remote Config (remote TweakProvider)
        let firebaseTweakProvider = FirebaseTweakProvider()
        tweakProviders.append(firebaseTweakProvider)

        // Local JSON-based TweakProvider (default TweakProvider)
        let jsonFileURL = Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!
        let localTweakProvider = LocalTweakProvider(jsonURL: jsonFileURL)
        tweakProviders.append(localTweakProvider)
        
        return TweakManager(tweakProviders: tweakProviders)
    }()
    // END README
}

struct ReadmeSettings {
    // README: property wrappers (placeholders filled in)
    @TweakProperty(feature: "ui_customization",
                   variable: "label_text",
                   tweakManager: ReadmeStack.tweakManager)
    var labelText: String
    @OptionalTweakProperty(fallbackValue: nil,
                           feature: "general",
                           variable: "meaning_of_life",
                           tweakManager: ReadmeStack.tweakManager)
    var meaningOfLife: Int?
    @FallbackTweakProperty(fallbackValue: false,
                           feature: "ui_customization",
                           variable: "show_feature_x",
                           tweakManager: ReadmeStack.tweakManager)
    var shouldShowFeatureX: Bool
    // END README
}

/// The README's lookups, each in a function so the test can see what it did.
enum ReadmeUsage {
    static let tweakManager = ReadmeStack.tweakManager

    static func generatedAccessor() -> Bool {
        var answered = false
        // README: Basic, with the code generator (placeholders filled in). `GeneratedTweakAccessor`
        // is in Generated/, written by `tweak generate -l Resources/LocalTweaks_example.json
        // -o Generated -c Resources` from the README's config.json.
        let accessor = GeneratedTweakAccessor(with: tweakManager)
        if accessor.meaningOfLife == 42 {
            answered = true
        }
        // END README
        return answered
    }

    static func featureCheck() -> Bool {
        // README: Checking if a feature is enabled
        // check for a feature to be enabled
        let enabled = tweakManager.isFeatureEnabled("some_feature")
        if enabled {
            // enable the feature
        } else {
            // default behaviour
        }
        // END README
        return enabled
    }

    static func optionalLookup() -> Tweak? {
        var found: Tweak?
        // README: Get the value of a flag, with try?
        // check for a tweak value
        let tweak = try? tweakManager.tweakWith(feature: "some_feature", variable: "some_flag")
        // `if let tweak = tweak` is the README's line, kept as published; the body below it is a
        // comment in the README (where the reader uses `tweak.value`), filled in here, which also
        // keeps the compiler from warning that the bound `tweak` is unused.
        if let tweak = tweak {
            // tweak was found in some tweak provider, use tweak.value
            found = tweak
        } else {
            // tweak was not found in any tweak provider
        }
        // END README
        return found
    }

    static func throwingLookup() -> Tweak? {
        // README: Or with do-catch
        // check for a tweak value
        do {
            let tweak = try tweakManager.tweakWith(feature: "some_feature", variable: "some_flag")
            // tweak was found in some tweak provider, use tweak.value
            return tweak    
        } catch let error as TweakError {
            switch error {
            case .notFound: () // "Feature or variable is not found"
            case .notSupported: () // "Variable type is not supported"
            case .decryptionClosureNotProvided: () // "Value is encrypted but there's no decryption closure provided"
            }
        } catch let error { // add a default catch to satisfy the compiler
            print(error.localizedDescription)
        }
        // END README
        return nil
    }

    static func decryption(_ tweakProvider: LocalTweakProvider) {
        // README: Encryption or pre-processing (the closure's body filled in)
        tweakProvider.decryptionClosure = { tweak in
            // decrypt `tweak.value` with your cypher of choice and return the decrypted value
            String((tweak.value.stringValue ?? "").reversed())
        }
        // END README
    }
}

/// Stands in for UIKit's view controller, which the README's notification snippet overrides.
class ViewController {
    func viewDidLoad() {}
}

/// The README's notification snippet in an app's view controller.
final class ReadmeViewController: ViewController, @unchecked Sendable {
    private let updates = Mutex(0)
    private var observer: (any NSObjectProtocol)?
    var updateCount: Int { updates.withLock { $0 } }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    // README: reacting to changes (the observer registration in Linux's form; see below)
    override func viewDidLoad() {
        super.viewDidLoad()
        // The README registers `self` with `selector: #selector(updateUI)` on the Swift 2 name
        // `NotificationCenter.defaultCenter()`, and marks `updateUI` `@objc`: both need the
        // Objective-C runtime, which Linux lacks. This is the same registration with
        // NotificationCenter's block form; the name and object are the README's.
        // The block form returns a token to remove the observer with; it is kept for `deinit`.
        observer = NotificationCenter.default.addObserver(forName: TweakProviderDidChangeNotification,
                                                          object: nil,
                                                          queue: nil) { [weak self] _ in self?.updateUI() }
    }

    func updateUI() {
        // update the UI accordingly
        updates.withLock { $0 += 1 }
    }
    // END README
}

@Suite("JustTweak's README", .serialized)
struct JustTweakReadmeTests {
    @Test("the stack: priority follows the array, the UserDefaults provider is the mutable one")
    func stack() throws {
        let tweakManager = ReadmeStack.tweakManager
        #expect(tweakManager.tweakProviders.map { "\(type(of: $0))" } == ["UserDefaultsTweakProvider", "OptimizelyTweakProvider", "FirebaseTweakProvider", "LocalTweakProvider"])
        let mutable = try #require(tweakManager.mutableTweakProvider)
        #expect(mutable is UserDefaultsTweakProvider)
    }

    @Test("the generated accessor reads the stack's values, overrides included")
    func accessor() {
        #expect(ReadmeUsage.generatedAccessor())
        let tweakManager = ReadmeStack.tweakManager
        tweakManager.set(43, feature: "general", variable: "meaning_of_life")
        defer { tweakManager.deleteValue(feature: "general", variable: "meaning_of_life") }
        #expect(!ReadmeUsage.generatedAccessor())
        #expect(GeneratedTweakAccessor(with: tweakManager).meaningOfLife == 43)
    }

    @Test("isFeatureEnabled tells whether a feature is on")
    func featureEnabled() {
        #expect(ReadmeUsage.featureCheck())
        #expect(!ReadmeStack.tweakManager.isFeatureEnabled("unknown_feature"))
    }

    @Test("tweakWith returns the highest-priority value and falls back to the others")
    func lookups() throws {
        let tweakManager = ReadmeStack.tweakManager
        defer { tweakManager.deleteValue(feature: "some_feature", variable: "some_flag") }
        #expect(ReadmeUsage.optionalLookup()?.stringValue == "a value")
        #expect(ReadmeUsage.throwingLookup()?.stringValue == "a value")
        tweakManager.set("overridden", feature: "some_feature", variable: "some_flag")
        #expect(ReadmeUsage.optionalLookup()?.stringValue == "overridden")
        #expect(ReadmeUsage.throwingLookup()?.source == "UserDefaultsTweakProvider")
        tweakManager.deleteValue(feature: "some_feature", variable: "some_flag")
        #expect(ReadmeUsage.throwingLookup()?.stringValue == "a value")
    }

    @Test("a missing tweak: try? gives nil, do-catch lands in .notFound")
    func missing() {
        #expect((try? ReadmeStack.tweakManager.tweakWith(feature: "some_feature", variable: "nope")) == nil)
        #expect(throws: TweakError.notFound) {
            try ReadmeStack.tweakManager.tweakWith(feature: "some_feature", variable: "nope")
        }
    }

    @Test("the property wrappers read the stack's values and the fallback")
    func propertyWrappers() {
        let settings = ReadmeSettings()
        #expect(settings.labelText == "Test value")
        #expect(settings.meaningOfLife == 42)
        #expect(settings.shouldShowFeatureX)
    }

    @Test("caching: useCache can be turned on and off; resetCache and the notification rebuild it")
    func caching() throws {
        let tweakManager = ReadmeStack.tweakManager
        tweakManager.useCache = true
        tweakManager.resetCache()
        NotificationCenter.default.post(name: TweakProviderDidChangeNotification, object: nil)
        #expect(try tweakManager.tweakWith(feature: "ui_customization", variable: "label_text").value == "Test value")
        tweakManager.useCache = false
        #expect(try tweakManager.tweakWith(feature: "ui_customization", variable: "label_text").value == "Test value")
        tweakManager.useCache = true
    }

    @Test("the decryption closure gives the decrypted value")
    func decryption() throws {
        let url = try #require(Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json"))
        let tweakProvider = LocalTweakProvider(jsonURL: url)
        ReadmeUsage.decryption(tweakProvider)
        let tweak = try tweakProvider.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")
        #expect(tweak.value == "Definitely not 42")
        let tweakManager = TweakManager(tweakProviders: [tweakProvider])
        #expect(try tweakManager.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe").stringValue == "Definitely not 42")
    }

    @Test("a view controller observing TweakProviderDidChangeNotification updates its UI after a provider changes")
    func notificationObservation() {
        let viewController = ReadmeViewController()
        viewController.viewDidLoad()
        let before = viewController.updateCount
        let userDefaults = UserDefaults(suiteName: "JustTweakReadmeTests.\(UUID().uuidString)") ?? .standard
        let userDefaultsTweakProvider = UserDefaultsTweakProvider(userDefaults: userDefaults)
        userDefaultsTweakProvider.set(true, feature: "ui_customization", variable: "display_red_view")
        defer { userDefaultsTweakProvider.deleteValue(feature: "ui_customization", variable: "display_red_view") }
        #expect(viewController.updateCount > before)
    }

    @Test("the three providers that come out of the box")
    func outOfTheBox() {
        let providers: [TweakProvider] = [
            UserDefaultsTweakProvider(userDefaults: UserDefaults.standard),
            LocalTweakProvider(jsonURL: Bundle.main.url(forResource: "LocalTweaks_example", withExtension: "json")!),
            EphemeralTweakProvider(),
            NSMutableDictionary(),
        ]
        #expect(providers.filter { $0 is MutableTweakProvider }.count == 3)
    }
}
