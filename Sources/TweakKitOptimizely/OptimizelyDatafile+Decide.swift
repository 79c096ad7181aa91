import TweakKit

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
        guard let flag = flags[flagKey] else {
            var reasons = DecisionReasons(recording: true, userID: user.id)
            reasons.append(.flagNotFound(flag: flagKey))
            return OptimizelyDecision(flagKey: flagKey, userID: user.id, enabled: false, variables: [:], reasonLog: reasons, isImpression: false)
        }
        var reasons = DecisionReasons(recording: true, userID: user.id)
        let choice = choose(flag, user: user, forced: forcedDecisions, reasons: &reasons)
        // Converted at load for the flag's own variations and for none (every default, as a
        // variation that is not enabled serves); an enabled holdout variation (holdouts belong
        // to no flag) is converted here.
        let decided = if let variation = choice?.variation, variation.value.featureEnabled {
            variation.value.decidedVariables ?? Self.decidedVariables(flag.value.variables, flagKey: flag.value.key, variation: variation)
        } else {
            flag.value.defaultVariables
        }
        for problem in decided.problems { reasons.append(.text(problem)) }
        return OptimizelyDecision(
            flagKey: flagKey, userID: user.id, enabled: choice?.variation.value.featureEnabled ?? false,
            variationKey: choice?.variation.value.key, variationID: choice?.variation.value.id,
            ruleKey: choice?.ruleKey, ruleID: choice?.ruleID, source: choice?.source,
            variables: decided.values, reasonLog: reasons,
            // As the SDKs: experiments always; with sendFlagDecisions every decision, even none.
            isImpression: choice?.source == .featureTest || sendFlagDecisions
        )
    }

    /// Decisions for every flag, in datafile order.
    public func decideAll(user: OptimizelyUser, forcedDecisions: OptimizelyForcedDecisions? = nil) -> [OptimizelyDecision] {
        flagKeys.map { decide(flagKey: $0, user: user, forcedDecisions: forcedDecisions) }
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
            reasons.append(.holdoutExcludesTargetedDeliveries(holdout: holdout.value.key))
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
            reasons.append(.invalidForcedVariation(flag: flag.value.key, rule: rule?.value.key))
            return nil
        }
        reasons.append(.forcedVariation(variation: key, flag: flag.value.key, rule: rule?.value.key))
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
            reasons.append(.holdoutNotRunning(holdout: holdout.value.key))
            return nil
        }
        guard meetsAudience(holdout, user: user) else {
            reasons.append(.holdoutAudiencesNotMet(holdout: holdout.value.key))
            return nil
        }
        guard let variation = bucket(holdout, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append(.holdoutNotBucketed(holdout: holdout.value.key))
            return nil
        }
        reasons.append(.holdoutVariation(variation: variation.value.key, holdout: holdout.value.key))
        reasons.append(.heldOut(holdout: holdout.value.key, flag: flag.value.key))
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
            reasons.append(.experimentNotRunning(experiment: experiment.value.key))
            return nil
        }
        guard !experiment.value.isContextualBandit else {
            reasons.append(.contextualBandit(experiment: experiment.value.key))
            return nil
        }
        if let variationKey = experiment.value.forcedVariations[user.id] {
            if let id = experiment.value.variationKeys[variationKey], let variation = experiment.value.variations[id] {
                reasons.append(.whitelisted(variation: variationKey))
                return (variation, .whitelist)
            }
            reasons.append(.whitelistedVariationMissing(variation: variationKey))
        }
        let matches = meetsAudience(experiment, user: user)
        reasons.append(.experimentAudiences(experiment: experiment.value.key, met: matches))
        guard matches else {
            reasons.append(.experimentAudiencesNotMet(experiment: experiment.value.key))
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
                reasons.append(.inOtherGroupExperiment(experiment: experiment.value.key, group: group.id))
                return nil
            }
            reasons.append(.inGroupExperiment(experiment: experiment.value.key, group: group.id))
        }
        guard let variation = bucket(experiment, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append(.inNoVariation)
            return nil
        }
        reasons.append(.experimentVariation(variation: variation.value.key, experiment: experiment.value.key))
        return (variation, .bucketing)
    }

    private func decideRollout(_ flag: Shared<Flag>, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Choice? {
        guard !flag.value.rolloutRules.isEmpty else {
            if let rolloutID = flag.value.rolloutID { reasons.append(.rolloutWithoutRules(rollout: rolloutID)) }
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
