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
        var variation: Variation
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
            return OptimizelyDecision(
                flagKey: flagKey, userID: user.id, enabled: false, variables: [:],
                reasons: ["No flag was found for key \"\(flagKey)\"."], isImpression: false
            )
        }
        var reasons = DecisionReasons(recording: true)
        let choice = choose(flag, user: user, forced: forcedDecisions, reasons: &reasons)
        var variables: [String: TweakContent] = [:]
        for variable in flag.variables {
            switch typedValue(of: variable, in: flag, variation: choice?.variation) {
            case .success(let value): variables[variable.key] = value
            case .failure(let problem): reasons.append(problem.message)
            }
        }
        return OptimizelyDecision(
            flagKey: flagKey, userID: user.id, enabled: choice?.variation.featureEnabled ?? false,
            variationKey: choice?.variation.key, variationID: choice?.variation.id,
            ruleKey: choice?.ruleKey, ruleID: choice?.ruleID, source: choice?.source,
            variables: variables, reasons: reasons.messages,
            // As the SDKs: experiments always; with sendFlagDecisions every decision, even none.
            isImpression: choice?.source == .featureTest || sendFlagDecisions
        )
    }

    /// Decisions for every flag, in datafile order.
    public func decideAll(user: OptimizelyUser, forcedDecisions: OptimizelyForcedDecisions? = nil) -> [OptimizelyDecision] {
        flagKeys.map { decide(flagKey: $0, user: user, forcedDecisions: forcedDecisions) }
    }

    func choose(_ flag: Flag, user: OptimizelyUser, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Choice? {
        let bucketingID = user.bucketingID(reasons: &reasons)
        if let variation = forcedVariation(flag, rule: nil, user: user, forced: forced, reasons: &reasons) {
            return Choice(ruleKey: nil, ruleID: nil, variation: variation, source: .featureTest, method: .forcedDecision)
        }
        // A holdout that excludes targeted deliveries blocks the A/B tests only: targeted
        // delivery experiments (`"type": "td"`) and delivery rules still serve; when none does,
        // the user gets no variation (the holdout is not served either), as the SDKs decide.
        var heldOut = false
        // Indices into `holdouts`, so that none is copied.
        for index in holdouts.indices {
            guard let variation = decideHoldout(holdouts[index], flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) else { continue }
            guard holdouts[index].excludesTargetedDeliveries else {
                return Choice(ruleKey: holdouts[index].key, ruleID: holdouts[index].id, variation: variation, source: .holdout, method: .bucketing)
            }
            reasons.append("Holdout '\(holdouts[index].key)' excludes targeted deliveries. Targeted delivery rules will be evaluated.")
            heldOut = true
            break
        }
        // Rules are passed by index, so that none is copied.
        for index in flag.experiments.indices where !heldOut || flag.experiments[index].type == "td" {
            if let choice = decideExperimentRule(flag.experiments[index], flag: flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons) {
                return choice
            }
        }
        return decideRollout(flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons)
    }

    // MARK: - Steps

    private func forcedVariation(_ flag: Flag, rule: Experiment?, user: OptimizelyUser, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Variation? {
        guard let forced, let key = forced.variationKey(flagKey: flag.key, ruleKey: rule?.key, userID: user.id) else { return nil }
        let target = rule.map { "flag (\(flag.key)), rule (\($0.key))" } ?? "flag (\(flag.key))"
        guard let variation = flag.variationsByKey[key] else {
            reasons.append("Invalid variation is mapped to \(target) and user (\(user.id)) in the forced decision map.")
            return nil
        }
        reasons.append("Variation (\(key)) is mapped to \(target) and user (\(user.id)) in the forced decision map.")
        return variation
    }

    private func decideExperimentRule(
        _ experiment: Experiment, flag: Flag, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons
    ) -> Choice? {
        if let variation = forcedVariation(flag, rule: experiment, user: user, forced: forced, reasons: &reasons) {
            return Choice(ruleKey: experiment.key, ruleID: experiment.id, variation: variation, source: .featureTest, method: .forcedDecision)
        }
        if let held = decideLocalHoldouts(of: experiment, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return held
        }
        if let (variation, method) = decideExperiment(experiment, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return Choice(ruleKey: experiment.key, ruleID: experiment.id, variation: variation, source: .featureTest, method: method)
        }
        return nil
    }

    private func decideHoldout(_ holdout: Experiment, flag: Flag, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> Variation? {
        guard holdout.status == "Running" else {
            reasons.append("Holdout '\(holdout.key)' is not running.")
            return nil
        }
        guard meetsAudience(holdout, user: user) else {
            reasons.append("User '\(user.id)' does not meet the conditions for holdout '\(holdout.key)'.")
            return nil
        }
        guard let variation = bucket(holdout, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append("User '\(user.id)' is not bucketed into any variation for holdout '\(holdout.key)'.")
            return nil
        }
        reasons.append("The user '\(user.id)' is bucketed into variation '\(variation.key)' of holdout '\(holdout.key)'.")
        reasons.append("The user '\(user.id)' is bucketed into holdout '\(holdout.key)' for feature flag '\(flag.key)'.")
        return variation
    }

    /// The rule-level holdouts (`localHoldouts`) naming `rule`, checked before the rule's own checks.
    private func decideLocalHoldouts(of rule: Experiment, flag: Flag, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> Choice? {
        guard !localHoldouts.isEmpty, let ruleHoldouts = localHoldouts[rule.id] else { return nil }
        for holdout in ruleHoldouts {
            if let variation = decideHoldout(holdout, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
                return Choice(ruleKey: holdout.key, ruleID: holdout.id, variation: variation, source: .holdout, method: .bucketing)
            }
        }
        return nil
    }

    private func decideExperiment(_ experiment: Experiment, user: OptimizelyUser, bucketingID: String, reasons: inout DecisionReasons) -> (Variation, DecisionMethod)? {
        guard experiment.status == "Running" else {
            reasons.append("Experiment \"\(experiment.key)\" is not running.")
            return nil
        }
        guard !experiment.isContextualBandit else {
            reasons.append("Experiment \"\(experiment.key)\" is a contextual multi-armed bandit, which needs Optimizely's decision service; skipped.")
            return nil
        }
        if let variationKey = experiment.forcedVariations[user.id] {
            if let id = experiment.variationKeys[variationKey], let variation = experiment.variations[id] {
                reasons.append("User \"\(user.id)\" is forced in variation \"\(variationKey)\".")
                return (variation, .whitelist)
            }
            reasons.append("Variation key \"\(variationKey)\" is not in datafile.")
        }
        let matches = meetsAudience(experiment, user: user)
        reasons.append("Audiences for experiment \"\(experiment.key)\" collectively evaluated to \(matches ? "TRUE" : "FALSE").")
        guard matches else {
            reasons.append("User \"\(user.id)\" does not meet conditions to be in experiment \"\(experiment.key)\".")
            return nil
        }
        if let groupID = experiment.groupID, let group = groups[groupID], group.policy == "random" {
            let bucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, entityID: group.id)
            let chosen = OptimizelyBucketer.entity(for: bucket, in: group.trafficAllocation) ?? ""
            if chosen.isEmpty {
                reasons.append("User \"\(user.id)\" is in no experiment.")
                return nil
            }
            guard chosen == experiment.id else {
                reasons.append("User \"\(user.id)\" is not in experiment \"\(experiment.key)\" of group \(group.id).")
                return nil
            }
            reasons.append("User \"\(user.id)\" is in experiment \(experiment.key) of group \(group.id).")
        }
        guard let variation = bucket(experiment, bucketingID: bucketingID, reasons: &reasons) else {
            reasons.append("User \"\(user.id)\" is in no variation.")
            return nil
        }
        reasons.append("User \"\(user.id)\" is in variation \"\(variation.key)\" of experiment \(experiment.key).")
        return (variation, .bucketing)
    }

    private func decideRollout(_ flag: Flag, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons) -> Choice? {
        guard !flag.rolloutRules.isEmpty else {
            if let rolloutID = flag.rolloutID { reasons.append("Rollout \(rolloutID) has no experiments.") }
            return nil
        }
        var index = 0
        while index < flag.rolloutRules.count {
            switch decideDeliveryRule(flag.rolloutRules[index], index: index, flag: flag, user: user, bucketingID: bucketingID, forced: forced, reasons: &reasons) {
            case .decided(let choice): return choice
            case .nextRule: index += 1
            case .everyoneElse: index = flag.rolloutRules.count - 1
            case .done: return nil
            }
        }
        return nil
    }

    private enum DeliveryRuleOutcome {
        case decided(Choice), nextRule, everyoneElse, done
    }

    private func decideDeliveryRule(
        _ rule: Experiment, index: Int, flag: Flag, user: OptimizelyUser, bucketingID: String, forced: OptimizelyForcedDecisions?, reasons: inout DecisionReasons
    ) -> DeliveryRuleOutcome {
        if let variation = forcedVariation(flag, rule: rule, user: user, forced: forced, reasons: &reasons) {
            return .decided(Choice(ruleKey: rule.key, ruleID: rule.id, variation: variation, source: .rollout, method: .forcedDecision))
        }
        if let held = decideLocalHoldouts(of: rule, flag: flag, user: user, bucketingID: bucketingID, reasons: &reasons) {
            return .decided(held)
        }
        let isEveryoneElse = index == flag.rolloutRules.count - 1
        let name = isEveryoneElse ? "Everyone Else" : String(index + 1)
        let matches = meetsAudience(rule, user: user)
        reasons.append("Audiences for rule \(name) collectively evaluated to \(matches ? "TRUE" : "FALSE").")
        guard matches else {
            reasons.append("User \"\(user.id)\" does not meet audience conditions for targeting rule \(name).")
            return .nextRule
        }
        reasons.append("User \"\(user.id)\" meets audience conditions for targeting rule \(name).")
        if let variation = bucket(rule, bucketingID: bucketingID, reasons: &reasons) {
            reasons.append("User \"\(user.id)\" bucketed into a targeting rule \(name).")
            return .decided(Choice(ruleKey: rule.key, ruleID: rule.id, variation: variation, source: .rollout, method: .bucketing))
        }
        guard !isEveryoneElse else { return .done }
        reasons.append("User \"\(user.id)\" not bucketed into a targeting rule \(name). Checking \"Everyone Else\" rule now.")
        return .everyoneElse
    }

    /// An unknown result counts as not meeting the audiences.
    private func meetsAudience(_ experiment: Experiment, user: OptimizelyUser) -> Bool {
        guard let conditions = experiment.audience.conditions else { return true }
        return conditions.evaluate(user.attributes) ?? false
    }

    private func bucket(_ experiment: Experiment, bucketingID: String, reasons: inout DecisionReasons) -> Variation? {
        let bucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, entityID: experiment.id)
        guard let entity = OptimizelyBucketer.entity(for: bucket, in: experiment.trafficAllocation) else { return nil }
        guard !entity.isEmpty else {
            reasons.append("Bucketed into an empty traffic range. Returning nil.")
            return nil
        }
        return experiment.variations[entity]
    }
}
