import Testing
import JustTweak

/// `decryptionClosure` on the manager and on `LocalTweakProvider`, as JustTweak's README describes it.
@Suite("Decryption")
struct DecryptionTests {
    let feature = "general"
    let variable = "encrypted_answer_to_the_universe"

    @Test("the manager's closure decrypts tweaks marked Encrypted")
    func managerDecrypts() throws {
        let tweakManager = TweakManager(tweakProviders: [LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example"))])
        tweakManager.decryptionClosure = { tweak in
            String((tweak.value.stringValue ?? "").reversed())
        }
        let tweak = try? tweakManager.tweakWith(feature: feature, variable: variable)
        #expect(tweak?.stringValue == "Definitely not 42")
        #expect(try tweakManager.tweakWith(feature: "general", variable: "meaning_of_life").value == 42)
    }

    @Test("without a closure, an encrypted tweak throws decryptionClosureNotProvided")
    func missingClosure() {
        let tweakManager = TweakManager(tweakProviders: [LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example"))])
        do {
            _ = try tweakManager.tweakWith(feature: feature, variable: variable)
            Issue.record("expected an error")
        } catch let error as TweakError {
            switch error {
            case .decryptionClosureNotProvided: ()
            case .notFound, .notSupported: Issue.record("unexpected \(error)")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("setting the manager's closure sets it on its providers")
    func propagates() throws {
        let userDefaultsTweakProvider = UserDefaultsTweakProvider(userDefaults: makeUserDefaults())
        let tweakManager = TweakManager(tweakProviders: [userDefaultsTweakProvider])
        let mutableTweakProvider = try #require(tweakManager.mutableTweakProvider)
        #expect(mutableTweakProvider.decryptionClosure == nil)
        tweakManager.decryptionClosure = { tweak in
            tweak.value
        }
        #expect(mutableTweakProvider.decryptionClosure != nil)
        #expect(tweakManager.decryptionClosure != nil)
    }

    @Test("a provider's own closure decrypts what the provider returns, and what the manager returns")
    func providerDecrypts() throws {
        let tweakProvider = LocalTweakProvider(jsonURL: resourceURL("LocalTweaks_example"))
        let tweakManager = TweakManager(tweakProviders: [tweakProvider])
        #expect((try? tweakManager.tweakWith(feature: feature, variable: variable)) == nil)
        tweakProvider.decryptionClosure = { tweak in
            String((tweak.value.stringValue ?? "").reversed())
        }
        #expect(try tweakProvider.tweakWith(feature: feature, variable: variable).stringValue == "Definitely not 42")
        #expect(try tweakManager.tweakWith(feature: feature, variable: variable).stringValue == "Definitely not 42")
    }
}
