import Foundation
import Testing
import TweakKit
import TweakKitOptimizely

/// The test datafile: Datafiles/checkout.json. Expected buckets were computed independently
/// with a reference MurmurHash3 (seed 1): user-1 → 6061 in checkout_ab, 6994 in beta_users,
/// 1559 in everyone_else, 7347 in the group; user-2 → 6232, 3232, 9729, 387; user-3 → 4001 in
/// checkout_ab; user-4 misses beta_users and everyone_else; user-11 → under 1000 in the holdout;
/// user-17 → in the group's hole (4000..<5000).
func loadDatafile() throws -> OptimizelyDatafile {
    let url = try #require(Bundle.module.url(forResource: "checkout", withExtension: "json", subdirectory: "Datafiles"))
    return try OptimizelyDatafile(contentsOf: url)
}

extension OptimizelyDatafile {
    /// `decide(flagKey:user:)`, whose reasons are taken again when read, checked against the
    /// same decision with its steps recorded as they are taken (given a set of forced decisions
    /// that forces nothing): every field and every reason must be the same.
    func checkedDecide(flagKey: String, user: OptimizelyUser, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> OptimizelyDecision {
        let replayed = decide(flagKey: flagKey, user: user)
        let recorded = decide(flagKey: flagKey, user: user, forcedDecisions: OptimizelyForcedDecisions())
        #expect(replayed.reasons == recorded.reasons, sourceLocation: sourceLocation)
        #expect(replayed.flagKey == recorded.flagKey && replayed.userID == recorded.userID && replayed.enabled == recorded.enabled,
                sourceLocation: sourceLocation)
        #expect(replayed.variationKey == recorded.variationKey && replayed.variationID == recorded.variationID, sourceLocation: sourceLocation)
        #expect(replayed.ruleKey == recorded.ruleKey && replayed.ruleID == recorded.ruleID && replayed.source == recorded.source,
                sourceLocation: sourceLocation)
        #expect(replayed.isImpression == recorded.isImpression, sourceLocation: sourceLocation)
        // NaN is not equal to itself: compare the variables in words.
        let words = { (variables: [String: TweakContent]) in variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
        #expect(words(replayed.variables) == words(recorded.variables), sourceLocation: sourceLocation)
        return replayed
    }
}

@Suite("Optimizely decisions")
struct DecisionTests {
    let datafile: OptimizelyDatafile

    init() throws {
        datafile = try loadDatafile()
    }

    func decide(_ flag: String, _ user: String, _ attributes: [String: TweakContent] = [:], forced: OptimizelyForcedDecisions? = nil) -> OptimizelyDecision {
        let user = OptimizelyUser(id: user, attributes: attributes)
        guard let forced else { return datafile.checkedDecide(flagKey: flag, user: user) }
        return datafile.decide(flagKey: flag, user: user, forcedDecisions: forced)
    }

    @Test("an experiment buckets users who pass its audience; variables come from the enabled variation")
    func experiment() {
        let treatment = decide("checkout_redesign", "user-1", ["plan": "pro"])
        #expect(treatment.enabled)
        #expect(treatment.variationKey == "treatment")
        #expect(treatment.ruleKey == "checkout_ab")
        #expect(treatment.source == .featureTest)
        #expect(treatment.isImpression)
        #expect(treatment.variables == [
            "color": "green", "discount": 15, "ratio": 0.5, "express": true,
            "layout": ["steps": 2, "labels": ["cart", "pay"]], "legacy_layout": [1, 2],
        ])
        #expect(treatment.reasons.contains(#"Audiences for experiment "checkout_ab" collectively evaluated to TRUE."#))
        #expect(treatment.reasons.contains(#"User "user-1" is in variation "treatment" of experiment checkout_ab."#))

        // A variation whose feature is disabled gives the defaults, whatever it sets.
        let control = decide("checkout_redesign", "user-3", ["plan": "pro"])
        #expect(control.variationKey == "control")
        #expect(control.enabled == false)
        #expect(control.variables["color"] == "grey")
        #expect(control.variables["express"] == false)
    }

    @Test("delivery rules in order; Everyone Else last")
    func rollout() {
        let beta = decide("checkout_redesign", "user-2", ["beta": true])
        #expect(beta.reasons.contains(#"User "user-2" does not meet conditions to be in experiment "checkout_ab"."#))
        #expect(beta.ruleKey == "beta_users")
        #expect(beta.variationKey == "on_beta")
        #expect(beta.source == .rollout)
        #expect(beta.variables["color"] == "purple")

        let dutch = decide("checkout_redesign", "user-4", ["country": "NL"])
        #expect(dutch.ruleKey == "dutch_users")
        #expect(dutch.variables["color"] == "orange")
        #expect(dutch.reasons.contains(#"User "user-4" does not meet audience conditions for targeting rule 1."#))
    }

    @Test("a user who passes a rule's audience but misses its traffic goes straight to Everyone Else")
    func skipToEveryoneElse() {
        // user-1 is beta and Dutch, misses beta_users' 50%, and is not offered dutch_users.
        let skipped = decide("checkout_redesign", "user-1", ["beta": true, "country": "NL"])
        #expect(skipped.ruleKey == "everyone_else")
        #expect(skipped.variationKey == "on_everyone")
        #expect(skipped.enabled)
        #expect(skipped.variables["color"] == "grey")
        #expect(skipped.reasons.contains(#"User "user-1" not bucketed into a targeting rule 1. Checking "Everyone Else" rule now."#))
        #expect(skipped.reasons.contains(#"User "user-1" bucketed into a targeting rule Everyone Else."#))

        // user-4 misses beta_users and Everyone Else's 20%: no decision, though dutch_users would take everyone.
        let none = decide("checkout_redesign", "user-4", ["beta": true, "country": "NL"])
        #expect(none.variationKey == nil)
        #expect(none.ruleKey == nil)
        #expect(none.enabled == false)
        #expect(none.variables["discount"] == 0)
        #expect(none.isImpression)  // the datafile sets sendFlagDecisions: every decision is reported
    }

    @Test("typed audiences replace audiences with the same id")
    func typedAudiencesWin() {
        #expect(decide("checkout_redesign", "user-4", ["country": "NL"]).ruleKey == "dutch_users")
        #expect(decide("checkout_redesign", "user-4", ["country": "DE"]).ruleKey == nil)
    }

    @Test("whitelisted users get their variation without audiences; experiments that are not running are skipped")
    func whitelist() {
        let forced = decide("checkout_redesign", "qa-user")
        #expect(forced.variationKey == "treatment")
        #expect(forced.ruleKey == "checkout_ab")
        #expect(forced.reasons.contains(#"User "qa-user" is forced in variation "treatment"."#))

        let paused = decide("paused_feature", "qa-user")
        #expect(paused.enabled == false)
        #expect(paused.variationKey == nil)
        #expect(paused.reasons.contains(#"Experiment "paused_test" is not running."#))
    }

    @Test("mutually exclusive group: the group's split picks one experiment, or none")
    func group() {
        let first = decide("search_ranking", "user-2")
        #expect(first.ruleKey == "ranking_a")
        #expect(first.variables["algorithm"] == "neural")
        #expect(first.reasons.contains(#"User "user-2" is in experiment ranking_a of group 6001."#))
        #expect(first.reasons.contains(#"User "user-2" is not in experiment "ranking_b" of group 6001."#) == false)

        let second = decide("search_ranking", "user-1")
        #expect(second.ruleKey == "ranking_b")
        #expect(second.variables["algorithm"] == "hybrid")
        #expect(second.reasons.contains(#"User "user-1" is not in experiment "ranking_a" of group 6001."#))

        let neither = decide("search_ranking", "user-17")
        #expect(neither.ruleKey == nil)
        #expect(neither.variables["algorithm"] == "bm25")
        #expect(neither.reasons.contains(#"User "user-17" is in no experiment."#))
    }

    @Test("holdouts come before rules; holdouts not running are skipped")
    func holdouts() {
        let held = decide("held_out_feature", "user-11")
        #expect(held.source == .holdout)
        #expect(held.ruleKey == "feature_holdout")
        #expect(held.variationKey == "holdout_off")
        #expect(held.enabled == false)

        let released = decide("held_out_feature", "user-1")
        #expect(released.source == .rollout)
        #expect(released.reasons.contains("Holdout 'draft_global_holdout' is not running."))
        #expect(released.enabled)
        // Every holdout applies to every flag: its "includedFlags" (held_out_feature only) is ignored.
        #expect(decide("checkout_redesign", "user-11", ["plan": "pro"]).source == .holdout)
    }

    @Test("not with a missing attribute is unknown, so the rule does not match")
    func threeValuedAudiences() {
        #expect(decide("kids_mode", "user-1").ruleKey == "everyone_else_3301")
        #expect(decide("kids_mode", "user-1", ["age": 10]).variationKey == "kids_mode")
        #expect(decide("kids_mode", "user-1", ["age": 30]).variationKey == "off")
        #expect(decide("kids_mode", "user-1", ["age": "ten"]).variationKey == "off")
    }

    @Test("forced decisions: flag level first, then per rule; an unknown variation is ignored")
    func forcedDecisions() {
        let forced = OptimizelyForcedDecisions()
        forced.set(variationKey: "treatment", flagKey: "checkout_redesign", userID: "user-3")
        let flagLevel = decide("checkout_redesign", "user-3", ["plan": "pro"], forced: forced)
        #expect(flagLevel.variationKey == "treatment")
        #expect(flagLevel.ruleKey == nil)
        #expect(flagLevel.source == .featureTest)
        #expect(flagLevel.reasons.first == "Variation (treatment) is mapped to flag (checkout_redesign) and user (user-3) in the forced decision map.")

        forced.set(variationKey: "on_nl", flagKey: "checkout_redesign", ruleKey: "beta_users", userID: "user-2")
        let ruleLevel = decide("checkout_redesign", "user-2", forced: forced)
        #expect(ruleLevel.ruleKey == "beta_users")
        #expect(ruleLevel.variationKey == "on_nl")
        #expect(ruleLevel.source == .rollout)

        forced.set(variationKey: "control", flagKey: "checkout_redesign", ruleKey: "checkout_ab", userID: "user-1")
        #expect(decide("checkout_redesign", "user-1", forced: forced).variationKey == "control")

        forced.set(variationKey: "nope", flagKey: "checkout_redesign", userID: "user-1")
        let invalid = decide("checkout_redesign", "user-1", forced: forced)
        #expect(invalid.reasons.first == "Invalid variation is mapped to flag (checkout_redesign) and user (user-1) in the forced decision map.")
        #expect(invalid.variationKey == "control")  // the rule-level forced decision still applies

        forced.removeAll(userID: "user-1")
        #expect(decide("checkout_redesign", "user-1", ["plan": "pro"], forced: forced).variationKey == "treatment")
    }

    @Test("$opt_bucketing_id replaces the user id for bucketing when it is a string")
    func bucketingID() {
        let shared = decide("checkout_redesign", "someone", ["plan": "pro", "$opt_bucketing_id": "user-1"])
        #expect(shared.variationKey == "treatment")
        // "user-1" buckets into treatment (6061); "5" would bucket into control (3458).
        let ignored = decide("checkout_redesign", "user-1", ["plan": "pro", "$opt_bucketing_id": 5])
        #expect(ignored.variationKey == "treatment")
        #expect(ignored.reasons.first == "Bucketing ID attribute is not a string. Defaulted to user_id.")
    }

    @Test("an unknown flag is off with no variables")
    func unknownFlag() {
        let decision = decide("nope", "user-1")
        #expect(decision.enabled == false)
        #expect(decision.variables.isEmpty)
        #expect(decision.reasons == [#"No flag was found for key "nope"."#])
    }

    @Test("reasons read, set and compare as their words: equal words make equal decisions")
    func reasonsAsWords() {
        let decision = decide("checkout_redesign", "user-1", ["plan": "pro"])
        var rewritten = decision
        rewritten.reasons = decision.reasons
        #expect(rewritten.reasons == decision.reasons)
        #expect(rewritten == decision)
        #expect(rewritten.hashValue == decision.hashValue)
        #expect(Set([decision, rewritten]).count == 1)
        rewritten.reasons.append("one more")
        #expect(rewritten != decision)
        #expect(rewritten.reasons.last == "one more")
        // The same steps for another user are other words.
        let other = decide("checkout_redesign", "user-2", ["plan": "pro"])
        #expect(other.reasons != decision.reasons)
    }

    @Test("reasons taken again when read are the reasons recorded while deciding, for every user and rule")
    func reasonsTakenAgain() {
        // Without forced decisions the steps are taken again when read; with a set of forced
        // decisions (empty: it forces nothing) they are recorded as the decision is made.
        let attributeSets: [[String: TweakContent]] = [
            [:], ["plan": "pro"], ["beta": true], ["country": "NL"], ["beta": true, "country": "NL"],
            ["plan": "free", "country": "DE"], ["$opt_bucketing_id": 42],
        ]
        let none = OptimizelyForcedDecisions()
        var distinct = Set<[String]>()
        for flag in datafile.flagKeys + ["nope"] {
            for index in 0..<61 {
                // qa-user: whitelisted in checkout_ab.
                let id = index == 60 ? "qa-user" : "user-\(index)"
                let user = OptimizelyUser(id: id, attributes: attributeSets[index % attributeSets.count])
                let replayed = datafile.decide(flagKey: flag, user: user)
                let recorded = datafile.decide(flagKey: flag, user: user, forcedDecisions: none)
                #expect(replayed.reasons == recorded.reasons, "\(flag), \(user)")
                #expect(replayed == recorded)
                distinct.insert(replayed.reasons)
            }
        }
        #expect(distinct.count > 20)
        // They name the user decided for, whatever the decision's fields are changed to.
        var changed = decide("checkout_redesign", "user-1", ["plan": "pro"])
        let before = changed.reasons
        changed.userID = "someone-else"
        changed.variationKey = "control"
        #expect(changed.reasons == before)
        #expect(changed.userID == "someone-else")
        #expect(changed.variationKey == "control")
        #expect(decide("checkout_redesign", "user-1", ["plan": "pro"]).variationKey == "treatment")
    }
}
