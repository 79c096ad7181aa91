import TweakKit
import TweakKitEngineSupport

/// Builds an ``OptimizelyDatafile`` from parsed JSON, checking every reference.
struct DatafileParser {
    let reader: DatafileReader
    /// The audiences, parsed before the experiments that use them.
    private var audiences: [String: OptimizelyDatafile.Audience] = [:]

    init(file: String) {
        reader = DatafileReader(file: file)
    }

    private typealias Experiment = OptimizelyDatafile.Experiment

    mutating func parse(_ root: JSONNode) throws(TweakFileError) -> OptimizelyDatafile {
        _ = try reader.members(root, "a datafile")
        guard let versionNode = root["version"] else { throw reader.error(root, "the datafile has no \"version\"") }
        let version: String
        switch versionNode.kind {
        case .string(let text): version = text
        case .int(let number): version = String(number)
        default: throw reader.error(versionNode, "\"version\" must be a string, found \(versionNode.kindDescription)")
        }
        guard OptimizelyDatafile.supportedVersions.contains(version) else {
            throw reader.error(versionNode, "datafile version \"\(version)\" is not supported; TweakKit reads version 4")
        }

        audiences = try parseAudiences(root)
        let sendFlagDecisions = try reader.optionalBool(root, "sendFlagDecisions", in: "the datafile") ?? false

        var experimentsByID: [String: (Experiment, JSONNode)] = [:]
        for node in try reader.optionalArray(root, "experiments", in: "the datafile") {
            let experiment = try parseExperiment(node, what: "an experiment")
            try insert(experiment, node, into: &experimentsByID)
        }
        var groups: [String: OptimizelyDatafile.Group] = [:]
        for node in try reader.optionalArray(root, "groups", in: "the datafile") {
            let id = try reader.string(node, "id", in: "a group")
            let what = "group \(id)"
            var memberIDs: Set<String> = []
            for experimentNode in try reader.optionalArray(node, "experiments", in: what) {
                var experiment = try parseExperiment(experimentNode, what: "an experiment of \(what)")
                experiment.groupID = id
                memberIDs.insert(experiment.id)
                try insert(experiment, experimentNode, into: &experimentsByID)
            }
            let allocation = try parseTraffic(node, in: what) { entityID in memberIDs.contains(entityID) ? nil : "experiment \(entityID) is not in \(what)" }
            groups[id] = OptimizelyDatafile.Group(id: id, policy: try reader.optionalString(node, "policy", in: what) ?? "", trafficAllocation: allocation)
        }

        var rollouts: [String: [Experiment]] = [:]
        for node in try reader.optionalArray(root, "rollouts", in: "the datafile") {
            let id = try reader.string(node, "id", in: "a rollout")
            var rules: [Experiment] = []
            for ruleNode in try reader.optionalArray(node, "experiments", in: "rollout \(id)") {
                rules.append(try parseExperiment(ruleNode, what: "a rule of rollout \(id)"))
            }
            rollouts[id] = rules
        }

        var flags: [String: Shared<OptimizelyDatafile.Flag>] = [:]
        var flagKeys: [String] = []
        for node in try reader.optionalArray(root, "featureFlags", in: "the datafile") {
            let flag = try parseFlag(node, experiments: experimentsByID, rollouts: rollouts, sendFlagDecisions: sendFlagDecisions)
            guard flags[flag.key] == nil else { throw reader.error(node, "flag \"\(flag.key)\" is defined twice") }
            flags[flag.key] = Shared(flag)
            flagKeys.append(flag.key)
        }

        // Every holdout of "holdouts" applies to every flag: current SDKs ignore the
        // "includedFlags"/"excludedFlags" of older datafiles. Only running holdouts count.
        var holdouts: [Shared<Experiment>] = []
        for node in try reader.optionalArray(root, "holdouts", in: "the datafile") {
            var holdout = try parseExperiment(node, what: "a holdout")
            holdout.excludesTargetedDeliveries = try reader.optionalBool(node, "excludeTargetedDeliveries", in: "holdout \(holdout.key)") ?? false
            holdouts.append(Shared(holdout))
        }

        var ruleIDs = Set(experimentsByID.keys)
        for rules in rollouts.values { ruleIDs.formUnion(rules.map(\.id)) }
        var localHoldouts: [String: [Shared<Experiment>]] = [:]
        for node in try reader.optionalArray(root, "localHoldouts", in: "the datafile") {
            var holdout = try parseExperiment(node, what: "a local holdout")
            holdout.includedRules = try reader.strings(node, "includedRules", in: "local holdout \(holdout.key)")
            let shared = Shared(holdout)
            for ruleID in holdout.includedRules {
                guard ruleIDs.contains(ruleID) else {
                    throw reader.error(node, "local holdout \(holdout.key) names rule id \(ruleID), which the datafile does not define")
                }
                localHoldouts[ruleID, default: []].append(shared)
            }
        }

        return OptimizelyDatafile(
            version: version,
            revision: try reader.optionalString(root, "revision", in: "the datafile") ?? "",
            projectID: try reader.optionalString(root, "projectId", in: "the datafile") ?? "",
            accountID: try reader.optionalString(root, "accountId", in: "the datafile") ?? "",
            sendFlagDecisions: sendFlagDecisions,
            flagKeys: flagKeys, flags: flags, groups: groups, holdouts: holdouts, localHoldouts: localHoldouts,
            source: reader.file
        )
    }

    private func insert(_ experiment: Experiment, _ node: JSONNode, into experiments: inout [String: (Experiment, JSONNode)]) throws(TweakFileError) {
        guard experiments[experiment.id] == nil else { throw reader.error(node, "experiment id \(experiment.id) is defined twice") }
        experiments[experiment.id] = (experiment, node)
    }

    // MARK: - Audiences

    /// `audiences` (conditions as JSON text) overlaid with `typedAudiences` (conditions as JSON): typed win.
    private func parseAudiences(_ root: JSONNode) throws(TweakFileError) -> [String: OptimizelyDatafile.Audience] {
        var audiences: [String: OptimizelyDatafile.Audience] = [:]
        for node in try reader.optionalArray(root, "audiences", in: "the datafile") {
            let id = try reader.string(node, "id", in: "an audience")
            let what = "audience \(id)"
            guard let conditionsNode = node["conditions"] else { throw reader.error(node, "\(what) has no \"conditions\"") }
            let tree: JSONNode
            switch conditionsNode.kind {
            case .string(let text):
                do {
                    tree = try JSONParser.parse(Array(text.utf8))
                } catch {
                    throw reader.error(conditionsNode, "the conditions of \(what) are not valid JSON text: \(error.message) at \(error.location) of the string")
                }
            case .array, .object:
                tree = conditionsNode
            default:
                throw reader.error(conditionsNode, "the conditions of \(what) must be JSON text, found \(conditionsNode.kindDescription)")
            }
            audiences[id] = try parseAudience(node, id: id, tree: tree, at: conditionsNode)
        }
        for node in try reader.optionalArray(root, "typedAudiences", in: "the datafile") {
            let id = try reader.string(node, "id", in: "a typed audience")
            guard let conditionsNode = node["conditions"] else { throw reader.error(node, "typed audience \(id) has no \"conditions\"") }
            audiences[id] = try parseAudience(node, id: id, tree: conditionsNode, at: nil)
        }
        return audiences
    }

    /// `place` is where JSON-text conditions sit in the file (their own locations are inside the string).
    private func parseAudience(_ node: JSONNode, id: String, tree: JSONNode, at place: JSONNode?) throws(TweakFileError) -> OptimizelyDatafile.Audience {
        let what = "audience \(id)"
        let conditions = try ConditionTree<AttributeCondition>.parse(tree) { (leaf: JSONNode) throws(TweakFileError) -> AttributeCondition in
            let at = place ?? leaf
            guard leaf.members != nil else {
                throw reader.error(at, "a condition of \(what) must be an object, found \(leaf.kindDescription)")
            }
            // Only a string, a Boolean or a number is a valid value: an array or object is kept as
            // null, which no match accepts, rather than copied.
            let value: JSONValue = switch leaf["value"]?.kind {
            case .string(let text)?: .string(text)
            case .bool(let flag)?: .bool(flag)
            case .int(let number)?: .int(number)
            case .double(let number)?: .double(number)
            default: .null
            }
            do throws(TweakFileError) {
                return AttributeCondition(
                    // Without a name or type the condition is unknown, as in the SDKs.
                    name: try reader.optionalString(leaf, "name", in: "a condition of \(what)") ?? "",
                    type: try reader.optionalString(leaf, "type", in: "a condition of \(what)") ?? "",
                    match: try reader.optionalString(leaf, "match", in: "a condition of \(what)"),
                    value: value
                )
            } catch {
                var located = error
                if place != nil { located.location = at.location }
                throw located
            }
        }
        return OptimizelyDatafile.Audience(id: id, name: try reader.optionalString(node, "name", in: what) ?? id, conditions: conditions)
    }

    // MARK: - Experiments, rules and holdouts

    private func parseExperiment(_ node: JSONNode, what: String) throws(TweakFileError) -> Experiment {
        let id = try reader.string(node, "id", in: what)
        let key = try reader.string(node, "key", in: what)
        let kind = what.hasPrefix("an ") ? what.dropFirst(3) : what.hasPrefix("a ") ? what.dropFirst(2) : Substring(what)
        let name = "\(kind) \(key)"
        var variations: [String: Shared<OptimizelyDatafile.Variation>] = [:]
        var variationKeys: [String: String] = [:]
        var variationOrder: [String] = []
        for variationNode in try reader.optionalArray(node, "variations", in: name) {
            let variationID = try reader.string(variationNode, "id", in: "a variation of \(name)")
            let variationKey = try reader.string(variationNode, "key", in: "a variation of \(name)")
            var values: [String: String] = [:]
            for usage in try reader.optionalArray(variationNode, "variables", in: "variation \(variationKey) of \(name)") {
                let variableID = try reader.string(usage, "id", in: "a variable of variation \(variationKey)")
                values[variableID] = try reader.string(usage, "value", in: "variable \(variableID) of variation \(variationKey)")
            }
            variations[variationID] = Shared(OptimizelyDatafile.Variation(
                id: variationID, key: variationKey,
                featureEnabled: try reader.optionalBool(variationNode, "featureEnabled", in: "variation \(variationKey)") ?? false,
                variableValues: values
            ))
            variationKeys[variationKey] = variationKeys[variationKey] ?? variationID
            variationOrder.append(variationID)
        }
        let allocation = try parseTraffic(node, in: name) { entityID in variations[entityID] == nil ? "variation \(entityID) is not a variation of \(name)" : nil }
        var forced: [String: String] = [:]
        if let forcedNode = node["forcedVariations"], !forcedNode.isNull {
            for member in try reader.members(forcedNode, "\"forcedVariations\" of \(name)") {
                guard case .string(let variationKey) = member.value.kind else {
                    throw reader.error(member.value, "forced variation of user \(member.key) in \(name) must be a variation key")
                }
                forced[member.key] = variationKey
            }
        }
        var experiment = Experiment(
            id: id, key: key, status: try reader.optionalString(node, "status", in: name) ?? "",
            audience: try parseAudienceRule(node, in: name), variations: variations, variationKeys: variationKeys, variationOrder: variationOrder,
            trafficAllocation: allocation, forcedVariations: forced, groupID: nil
        )
        experiment.linkTraffic()
        if let cmab = node["cmab"], !cmab.isNull { experiment.isContextualBandit = true }
        if let type = node["type"], case .string(let text) = type.kind { experiment.type = text }
        return experiment
    }

    /// `audienceConditions` when present (even empty), else `audienceIds` as an "or".
    private func parseAudienceRule(_ node: JSONNode, in name: String) throws(TweakFileError) -> OptimizelyDatafile.AudienceRule {
        let treeNode: JSONNode
        if let conditions = node["audienceConditions"], !conditions.isNull {
            treeNode = conditions
        } else if let ids = node["audienceIds"], !ids.isNull {
            _ = try reader.array(ids, "\"audienceIds\" of \(name)")
            treeNode = ids
        } else {
            return .init(conditions: nil)
        }
        if case .array(let elements) = treeNode.kind, elements.isEmpty { return .init(conditions: nil) }
        let tree = try ConditionTree<String>.parse(treeNode) { (leaf: JSONNode) throws(TweakFileError) -> String in
            guard case .string(let id) = leaf.kind else {
                throw reader.error(leaf, "audience conditions of \(name) must hold audience ids, found \(leaf.kindDescription)")
            }
            guard audiences[id] != nil else {
                throw reader.error(leaf, "audience \(id) is not defined in \"audiences\" or \"typedAudiences\"")
            }
            return id
        }
        return .init(conditions: CompiledConditions(tree, audiences: audiences))
    }

    private func parseTraffic(_ node: JSONNode, in name: String, check: (String) -> String?) throws(TweakFileError) -> [OptimizelyDatafile.TrafficRange] {
        var ranges: [OptimizelyDatafile.TrafficRange] = []
        for rangeNode in try reader.optionalArray(node, "trafficAllocation", in: name) {
            let entityID = try reader.string(rangeNode, "entityId", in: "traffic allocation of \(name)")
            if !entityID.isEmpty, let problem = check(entityID) {
                throw reader.error(rangeNode["entityId"] ?? rangeNode, "traffic allocation: \(problem)")
            }
            ranges.append(.init(entityID: entityID, endOfRange: try reader.int(rangeNode, "endOfRange", in: "traffic allocation of \(name)")))
        }
        return ranges
    }

    // MARK: - Flags

    private func parseFlag(
        _ node: JSONNode, experiments: [String: (Experiment, JSONNode)], rollouts: [String: [Experiment]], sendFlagDecisions: Bool
    ) throws(TweakFileError) -> OptimizelyDatafile.Flag {
        let id = try reader.string(node, "id", in: "a flag")
        let key = try reader.string(node, "key", in: "a flag")
        let name = "flag \(key)"
        var variables: [OptimizelyDatafile.Variable] = []
        var variablesByKey: [String: Int] = [:]
        for variableNode in try reader.optionalArray(node, "variables", in: name) {
            let variableKey = try reader.string(variableNode, "key", in: "a variable of \(name)")
            let what = "variable \(variableKey) of \(name)"
            let typeName = try reader.string(variableNode, "type", in: what)
            let subType = try reader.optionalString(variableNode, "subType", in: what)
            // A type this version does not know is read as a string, as the SDKs do.
            let type: OptimizelyVariableType = subType == "json" && typeName == "string" ? .json : OptimizelyVariableType(rawValue: typeName) ?? .string
            guard variablesByKey[variableKey] == nil else { throw reader.error(variableNode, "\(what) is defined twice") }
            variablesByKey[variableKey] = variables.count
            variables.append(.init(id: try reader.string(variableNode, "id", in: what), key: variableKey, type: type,
                                   defaultValue: try reader.string(variableNode, "defaultValue", in: what)))
        }
        var flagExperiments: [Experiment] = []
        for idNode in try reader.optionalArray(node, "experimentIds", in: name) {
            guard case .string(let experimentID) = idNode.kind else { throw reader.error(idNode, "\"experimentIds\" of \(name) must hold strings") }
            guard let (experiment, _) = experiments[experimentID] else {
                throw reader.error(idNode, "\(name) names experiment \(experimentID), which the datafile does not define")
            }
            flagExperiments.append(experiment)
        }
        var rules: [Experiment] = []
        let rolloutID = try reader.optionalString(node, "rolloutId", in: name).flatMap { $0.isEmpty ? nil : $0 }
        if let rolloutID {
            guard let found = rollouts[rolloutID] else {
                throw reader.error(node["rolloutId"] ?? node, "\(name) names rollout \(rolloutID), which the datafile does not define")
            }
            rules = found
        }
        if let everyoneElse = rules.last, let variationID = everyoneElse.variationOrder.first, let variation = everyoneElse.variations[variationID] {
            for index in flagExperiments.indices where flagExperiments[index].type == "fr" {
                Self.addEveryoneElse(variation, to: &flagExperiments[index])
            }
        }
        for index in variables.indices {
            variables[index].typedDefault = OptimizelyDatafile.convert(variables[index].defaultValue, to: variables[index], flagKey: key)
        }
        let variablesByID = Dictionary(variables.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let defaults = OptimizelyDatafile.decidedVariables(variables, flagKey: key, variation: nil)
        /// Checks the variations' variable ids, converts their values once, and puts together
        /// what a decision holds when `rule` serves each variation as `source`.
        func typed(_ rule: Experiment, as source: OptimizelyDecision.Source) throws(TweakFileError) -> Experiment {
            var rule = rule
            for (variationID, variation) in rule.variations {
                var converted = variation.value
                for (variableID, text) in variation.value.variableValues {
                    guard let variable = variablesByID[variableID] else {
                        throw reader.error(node, "variation \(variation.value.key) of rule \(rule.key) sets variable id \(variableID), which \(name) does not define")
                    }
                    converted.typedValues[variableID] = OptimizelyDatafile.convert(text, to: variable, flagKey: key)
                }
                if converted.featureEnabled {
                    converted.decidedVariables = OptimizelyDatafile.decidedVariables(variables, flagKey: key, variation: Shared(converted))
                }
                converted.outcome = OptimizelyDatafile.outcome(
                    flag: key, variables: variables, defaults: defaults, variation: Shared(converted),
                    rule: (rule.key, rule.id), source: source, sendFlagDecisions: sendFlagDecisions
                )
                rule.variations[variationID] = Shared(converted)
            }
            rule.linkTraffic()
            return rule
        }
        var typedExperiments: [Experiment] = []
        for experiment in flagExperiments { typedExperiments.append(try typed(experiment, as: .featureTest)) }
        var typedRules: [Experiment] = []
        for rule in rules { typedRules.append(try typed(rule, as: .rollout)) }
        flagExperiments = typedExperiments
        rules = typedRules
        var variationsByKey: [String: Shared<OptimizelyDatafile.Variation>] = [:]
        for rule in flagExperiments + rules {
            for variation in rule.variationOrder.compactMap({ rule.variations[$0] }) where variationsByKey[variation.value.key] == nil {
                variationsByKey[variation.value.key] = variation
            }
        }
        return .init(id: id, key: key, experiments: flagExperiments.map(Shared.init), rolloutRules: rules.map(Shared.init), rolloutID: rolloutID, variables: variables,
                     variablesByKey: variablesByKey, variationsByKey: variationsByKey,
                     defaultVariables: defaults,
                     noDecision: OptimizelyDatafile.outcome(flag: key, variables: variables, defaults: defaults, variation: nil,
                                                            rule: nil, source: nil, sendFlagDecisions: sendFlagDecisions))
    }

    /// A feature rollout (`"type": "fr"`) serves the rollout's "Everyone Else" variation to the
    /// traffic its own allocation leaves: the variation joins the experiment with a range ending
    /// at 10000, as the SDKs add it at load.
    private static func addEveryoneElse(_ variation: Shared<OptimizelyDatafile.Variation>, to experiment: inout Experiment) {
        if experiment.variations[variation.value.id] == nil { experiment.variationOrder.append(variation.value.id) }
        experiment.variations[variation.value.id] = variation
        experiment.variationKeys[variation.value.key] = variation.value.id
        experiment.trafficAllocation.append(.init(entityID: variation.value.id, endOfRange: 10_000, variation: variation))
    }
}
