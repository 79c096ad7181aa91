@_spi(TweakKitEngines) import TweakKit

extension OptimizelyDatafile {
    /// How a rule chose the variation.
    enum DecisionMethod {
        case forcedDecision, whitelist, bucketing
    }

    struct Choice {
        /// The experiment, delivery rule or holdout that decided (`nil` for a flag-level forced decision).
        var ruleKey: String?
        var ruleID: String?
        var variation: Shared<Variation>
        var source: OptimizelyDecision.Source
        var method: DecisionMethod
    }

    /// Decides `flagKey` for `user` in Optimizely's order: a forced decision for the flag,
    /// holdouts (every holdout applies to every flag; one with `excludeTargetedDeliveries` lets
    /// targeted delivery experiments and delivery rules serve), experiments (forced decision, status Running, whitelist, audiences, group,
    /// bucketing), then delivery rules (forced decision, audiences, bucketing; a user who passes a
    /// rule's audiences but misses its traffic goes straight to "Everyone Else").
    public func decide(flagKey: String, user: OptimizelyUser, forcedDecisions: OptimizelyForcedDecisions? = nil) -> OptimizelyDecision {
        rules.decide(flagKey: flagKey, user: user, forcedDecisions: forcedDecisions)
    }

    /// Decisions for every flag, in datafile order.
    public func decideAll(user: OptimizelyUser, forcedDecisions: OptimizelyForcedDecisions? = nil) -> [OptimizelyDecision] {
        flagKeys.map { decide(flagKey: $0, user: user, forcedDecisions: forcedDecisions) }
    }

    /// A decision's fields for `variation` served by `rule` (`nil` for a flag-level forced
    /// decision) as `source`, or (`variation` `nil`) for no decision. Variables are converted at
    /// load for the flag's own variations and for none (every default, as a variation that is
    /// not enabled serves); an enabled holdout variation (holdouts belong to no flag) is
    /// converted here.
    static func outcome(
        flag flagKey: String, variables: [Variable], defaults: DecidedVariables, variation: Shared<Variation>?,
        rule: (key: String, id: String)?, source: OptimizelyDecision.Source?, sendFlagDecisions: Bool
    ) -> RuleOutcome {
        let decided = if let variation, variation.value.featureEnabled {
            variation.value.decidedVariables ?? decidedVariables(variables, flagKey: flagKey, variation: variation)
        } else {
            defaults
        }
        let fields = OptimizelyDecision.Outcome(
            flagKey: flagKey, enabled: variation?.value.featureEnabled ?? false,
            variationKey: variation?.value.key, variationID: variation?.value.id, ruleKey: rule?.key, ruleID: rule?.id,
            source: source, variables: decided.values,
            // As the SDKs: experiments always; with sendFlagDecisions every decision, even none.
            isImpression: source == .featureTest || sendFlagDecisions
        )
        return RuleOutcome(fields: Shared(fields), problems: decided.problems)
    }
}

extension OptimizelyDatafile.Rules {
    typealias Flag = OptimizelyDatafile.Flag
    typealias Experiment = OptimizelyDatafile.Experiment
    typealias Variation = OptimizelyDatafile.Variation
    typealias Choice = OptimizelyDatafile.Choice
    typealias RuleOutcome = OptimizelyDatafile.RuleOutcome
    typealias DecisionMethod = OptimizelyDatafile.DecisionMethod

    func decide(flagKey: String, user: OptimizelyUser, forcedDecisions: OptimizelyForcedDecisions?) -> OptimizelyDecision {
        guard let flag = flags[flagKey] else {
            var reasons = DecisionReasons(recordingInto: self, userID: user.id)
            reasons.appendFlagNotFound(flagKey)
            let outcome = OptimizelyDecision.Outcome(flagKey: flagKey, variables: [:], isImpression: false)
            return OptimizelyDecision(outcome: Shared(outcome), userID: user.id, reasonLog: reasons.finished())
        }
        // Without forced decisions (which can change) a decision is a function of these rules,
        // the flag and the user: its steps are taken again when its reasons are read, not
        // recorded now.
        guard let forcedDecisions else {
            var none = DecisionReasons.none
            let outcome = decide(flag, user: user, forced: nil, reasons: &none)
            return OptimizelyDecision(outcome: outcome.fields, userID: user.id, reasonLog: DecisionReasons(replaying: flag, user: user, rules: self))
        }
        var reasons = DecisionReasons(recordingInto: self, userID: user.id)
        let outcome = decide(flag, user: user, forced: forcedDecisions, reasons: &reasons)
        return OptimizelyDecision(outcome: outcome.fields, userID: user.id, reasonLog: reasons.finished())
    }

    /// Decides `flag`, recording every step (and each variable that did not convert) in `reasons`.
    func decide(_ flag: Shared<Flag>, user: OptimizelyUser, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> RuleOutcome {
        let outcome = outcome(of: choose(flag, user: user, forced: forced, reasons: &reasons), flag: flag)
        for problem in outcome.problems { reasons.append(message: problem) }
        return outcome
    }

    /// What a decision for `choice` holds: kept at load for no decision and for each of the
    /// flag's rules' variations when their rule serves them; put together here for a forced
    /// decision or a holdout.
    private func outcome(of choice: Choice?, flag: Shared<Flag>) -> RuleOutcome {
        guard let choice else { return flag.value.noDecision }
        if choice.method != .forcedDecision, let outcome = choice.variation.value.outcome { return outcome }
        return OptimizelyDatafile.outcome(
            flag: flag.value.key, variables: flag.value.variables, defaults: flag.value.defaultVariables,
            variation: choice.variation, rule: choice.ruleKey.map { ($0, choice.ruleID ?? "") }, source: choice.source,
            sendFlagDecisions: sendFlagDecisions
        )
    }

    func choose(_ flag: Shared<Flag>, user: OptimizelyUser, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Choice? {
        let bucketingID = user.bucketingID(reasons: &reasons)
        if let variation = forcedVariation(flag, rule: nil, user: user, forced: forced, reasons: &reasons) {
            return Choice(ruleKey: nil, ruleID: nil, variation: variation, source: .featureTest, method: .forcedDecision)
        }
        // A holdout that excludes targeted deliveries blocks the A/B tests only: targeted
        // delivery experiments (`"type": "td"`) and delivery rules still serve; when none does,
        // the user gets no variation (the holdout is not served either), as the SDKs decide.
        var heldOut = false
        for holdout in holdouts {
            guard let variation = decideHoldout(holdout, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) else { continue }
            guard holdout.value.excludesTargetedDeliveries else {
                return Choice(ruleKey: holdout.value.key, ruleID: holdout.value.id, variation: variation, source: .holdout, method: .bucketing)
            }
            reasons.append(.holdoutExcludesTargetedDeliveries(holdout: .init(holdout)))
            heldOut = true
            break
        }
        for experiment in flag.value.experiments where !heldOut || experiment.value.type == "td" {
            if let choice = decideExperimentRule(experiment, flag: flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons) {
                return choice
            }
        }
        return decideRollout(flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons)
    }

    // MARK: - Steps

    private func forcedVariation(_ flag: Shared<Flag>, rule: Shared<Experiment>?, user: OptimizelyUser, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Shared<Variation>? {
        guard let forced, let key = forced.variationKey(flagKey: flag.value.key, ruleKey: rule?.value.key, userID: user.id) else { return nil }
        guard let variation = flag.value.variationsByKey[key] else {
            reasons.append(.invalidForcedVariation(flag: .init(flag), rule: rule.map(DatafilePointer.init)))
            return nil
        }
        reasons.append(.forcedVariation(variation: .init(variation), flag: .init(flag), rule: rule.map(DatafilePointer.init)))
        return variation
    }

    private func decideExperimentRule(
        _ experiment: Shared<Experiment>, flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons
    ) -> Choice? {
        if let variation = forcedVariation(flag, rule: experiment, user: user, forced: forced, reasons: &reasons) {
            return Choice(ruleKey: experiment.value.key, ruleID: experiment.value.id, variation: variation, source: .featureTest, method: .forcedDecision)
        }
        if let held = decideLocalHoldouts(of: experiment, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return held
        }
        if let (variation, method) = decideExperiment(experiment, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return Choice(ruleKey: experiment.value.key, ruleID: experiment.value.id, variation: variation, source: .featureTest, method: method)
        }
        return nil
    }

    private func decideHoldout(_ holdout: Shared<Experiment>, flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> Shared<Variation>? {
        guard holdout.value.status == "Running" else {
            reasons.append(.holdoutNotRunning(holdout: .init(holdout)))
            return nil
        }
        guard meetsAudience(holdout, user: user) else {
            reasons.append(.holdoutAudiencesNotMet(holdout: .init(holdout)))
            return nil
        }
        guard let variation = bucket(holdout, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append(.holdoutNotBucketed(holdout: .init(holdout)))
            return nil
        }
        reasons.append(.holdoutVariation(variation: .init(variation), holdout: .init(holdout)))
        reasons.append(.heldOut(holdout: .init(holdout), flag: .init(flag)))
        return variation
    }

    /// The rule-level holdouts (`localHoldouts`) naming `rule`, checked before the rule's own checks.
    private func decideLocalHoldouts(of rule: Shared<Experiment>, flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> Choice? {
        guard !localHoldouts.isEmpty, let ruleHoldouts = localHoldouts[rule.value.id] else { return nil }
        for holdout in ruleHoldouts {
            if let variation = decideHoldout(holdout, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
                return Choice(ruleKey: holdout.value.key, ruleID: holdout.value.id, variation: variation, source: .holdout, method: .bucketing)
            }
        }
        return nil
    }

    private func decideExperiment(_ experiment: Shared<Experiment>, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> (Shared<Variation>, DecisionMethod)? {
        guard experiment.value.status == "Running" else {
            reasons.append(.experimentNotRunning(experiment: .init(experiment)))
            return nil
        }
        guard !experiment.value.isContextualBandit else {
            reasons.append(.contextualBandit(experiment: .init(experiment)))
            return nil
        }
        if let variationKey = FewKeys.value(in: experiment.value.forcedVariations, forKey: user.id) {
            if let id = experiment.value.variationKeys[variationKey], let variation = experiment.value.variations[id] {
                reasons.append(.whitelisted(variation: .init(variation)))
                return (variation, .whitelist)
            }
            reasons.append(.whitelistedVariationMissing(experiment: .init(experiment)))
        }
        let matches = meetsAudience(experiment, user: user)
        reasons.append(.experimentAudiences(experiment: .init(experiment), met: matches))
        guard matches else {
            reasons.append(.experimentAudiencesNotMet(experiment: .init(experiment)))
            return nil
        }
        if let groupID = experiment.value.groupID, let group = groups[groupID], group.policy == "random" {
            let bucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, entityID: group.id)
            let chosen = OptimizelyBucketer.entity(for: bucket, in: group.trafficAllocation) ?? ""
            if chosen.isEmpty {
                reasons.append(.inNoGroupExperiment)
                return nil
            }
            guard chosen == experiment.value.id else {
                reasons.append(.inOtherGroupExperiment(experiment: .init(experiment)))
                return nil
            }
            reasons.append(.inGroupExperiment(experiment: .init(experiment)))
        }
        guard let variation = bucket(experiment, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append(.inNoVariation)
            return nil
        }
        reasons.append(.experimentVariation(variation: .init(variation), experiment: .init(experiment)))
        return (variation, .bucketing)
    }

    private func decideRollout(_ flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Choice? {
        guard !flag.value.rolloutRules.isEmpty else {
            if flag.value.rolloutID != nil { reasons.append(.rolloutWithoutRules(flag: .init(flag))) }
            return nil
        }
        var index = 0
        while index < flag.value.rolloutRules.count {
            switch decideDeliveryRule(flag.value.rolloutRules[index], index: index, flag: flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons) {
            case .decided(let choice): return choice
            case .nextRule: index += 1
            case .everyoneElse: index = flag.value.rolloutRules.count - 1
            case .done: return nil
            }
        }
        return nil
    }

    private enum DeliveryRuleOutcome {
        case decided(Choice), nextRule, everyoneElse, done
    }

    private func decideDeliveryRule(
        _ rule: Shared<Experiment>, index: Int, flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons
    ) -> DeliveryRuleOutcome {
        if let variation = forcedVariation(flag, rule: rule, user: user, forced: forced, reasons: &reasons) {
            return .decided(Choice(ruleKey: rule.value.key, ruleID: rule.value.id, variation: variation, source: .rollout, method: .forcedDecision))
        }
        if let held = decideLocalHoldouts(of: rule, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return .decided(held)
        }
        let isEveryoneElse = index == flag.value.rolloutRules.count - 1
        let name: DeliveryRuleName = isEveryoneElse ? .everyoneElse : .number(index + 1)
        let matches = meetsAudience(rule, user: user)
        reasons.append(.ruleAudiences(rule: name, met: matches))
        guard matches else {
            reasons.append(.ruleAudiencesNotMet(rule: name))
            return .nextRule
        }
        reasons.append(.ruleAudiencesMet(rule: name))
        if let variation = bucket(rule, bucketingID: bucketingID, reasons: &reasons) {
            reasons.append(.ruleBucketed(rule: name))
            return .decided(Choice(ruleKey: rule.value.key, ruleID: rule.value.id, variation: variation, source: .rollout, method: .bucketing))
        }
        guard !isEveryoneElse else { return .done }
        reasons.append(.ruleNotBucketed(rule: name))
        return .everyoneElse
    }

    /// An unknown result counts as not meeting the audiences.
    private func meetsAudience(_ experiment: Shared<Experiment>, user: OptimizelyUser) -> Bool {
        guard let conditions = experiment.value.audience.conditions else { return true }
        return conditions.evaluate(user.attributes) ?? false
    }

    private func bucket(_ experiment: Shared<Experiment>, bucketingID: String, reasons: inout DecisionReasons) -> Shared<Variation>? {
        let bucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, entityID: experiment.value.id)
        guard let range = OptimizelyBucketer.range(for: bucket, in: experiment.value.trafficAllocation) else { return nil }
        guard !range.entityID.isEmpty else {
            reasons.append(.emptyTrafficRange)
            return nil
        }
        return range.variation
    }
}
