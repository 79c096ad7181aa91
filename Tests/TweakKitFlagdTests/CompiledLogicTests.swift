import Foundation
import Testing
import TweakKitTestSupport
import TweakKit
@testable import TweakKitFlagd

/// The faster forms rules compile to (`var` with a literal path, `fractional` with literal
/// distributions, binary operations without argument arrays, a context read in place) give the
/// same answer as the plain tree evaluated over the data object built in full, for generated
/// rules and contexts.
@Suite("Compiled JsonLogic: the fast forms answer as the plain tree does")
struct CompiledLogicTests {
    @Test("generated rules and contexts, seeds 1 to 4", arguments: 1...4)
    func generated(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var answered = 0
        for _ in 0..<2_000 {
            let rule = Self.rule(&random, depth: 0)
            let context = Self.context(&random)
            let flagKey = ["new-checkout", "flag", "ü-flag"][random.below(3)]
            let data = LogicContext(context: context, flagKey: flagKey, timestamp: 1_700_000_000)

            var fast = LogicCompiler()
            var plain = LogicCompiler()
            plain.specializes = false
            let parsed = try LogicValue(json: rule)
            let specialized = try fast.compile(parsed)
            let tree = try plain.compile(parsed)

            // The reference: the plain tree over the data object as the evaluator built it before it
            // read contexts in place (built here, independently of `LogicContext`).
            let object = Self.dataObject(context, flagKey: flagKey, timestamp: 1_700_000_000)
            let inPlace = LogicEvaluator().evaluate(specialized, in: .context(data))
            let overObject = LogicEvaluator().evaluate(specialized, data: object)
            let reference = LogicEvaluator().evaluate(tree, data: object)
            #expect(inPlace == reference, "rule \(rule), context \(context), flag \(flagKey)")
            // The node form a flag evaluates (every generated rule is small enough to have one).
            let program = try #require(LogicProgram.program(specialized))
            #expect(program.evaluate(in: .context(data)) == reference, "nodes: rule \(rule), context \(context), flag \(flagKey)")
            #expect(program.evaluate(in: .value(object)) == reference, "nodes over the object: rule \(rule), context \(context)")
            // A condition's truth, which a test node answers without building its value.
            #expect(program.isTruthy(in: .context(data)) == reference.isJsonLogicTruthy, "truth: rule \(rule), context \(context)")
            #expect(program.isTruthy(in: .value(object)) == reference.isJsonLogicTruthy, "truth over the object: rule \(rule), context \(context)")
            #expect(overObject == reference, "rule \(rule), context \(context), flag \(flagKey)")
            #expect(data.object == object)
            if reference != .null { answered += 1 }
        }
        // The generated rules must reach answers, not just null (a generator gone wrong would compare nothing).
        #expect(answered > 600, "only \(answered) of 2,000 rules answered anything but null")
    }

    @Test("a flag evaluates its rule as nodes; a rule too large to copy into nodes, as an expression")
    func nodeBudget() throws {
        var compiler = LogicCompiler()
        let small = try compiler.compile(LogicValue(json: #"{"if": [{"in": [{"var": "country"}, ["NL"]]}, "on", "off"]}"#))
        #expect(LogicProgram.program(small) != nil)
        // 1,200 operations: more nodes than a program holds (the expression shares nothing here,
        // but a rule's `$ref` evaluators would be copied once per use).
        let conditions = Array(repeating: #"{"==": [{"var": "country"}, "NL"]}"#, count: 1_200).joined(separator: ", ")
        let large = try compiler.compile(LogicValue(json: #"{"if": [{"and": [\#(conditions)]}, "on", "off"]}"#))
        #expect(LogicProgram.program(large) == nil)
        // A chain's links count: 600 empty comparisons in one `and` are about 1,200 objects.
        let links = Array(repeating: #"{"==": []}"#, count: 600).joined(separator: ", ")
        #expect(LogicProgram.program(try compiler.compile(LogicValue(json: #"{"and": [\#(links)]}"#))) == nil)
        #expect(LogicProgram.program(try compiler.compile(LogicValue(json: #"{"and": [\#(links.prefix(300 * 12 - 2))]}"#))) != nil)
        let file = #"{"flags": {"big": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"and": [\#(conditions)]}, "on", "off"]}}}}"#
        let definitions = try FlagdDefinitions(data: Data(file.utf8), file: "big.flagd.json")
        #expect(definitions.flags["big"]?.evaluatesNodes == false)
        let nl = definitions.evaluate(flagKey: "big", context: EvaluationContext(targetingKey: "u", attributes: ["country": "NL"]))
        let be = definitions.evaluate(flagKey: "big", context: EvaluationContext(targetingKey: "u", attributes: ["country": "BE"]))
        #expect(nl.value == .bool(true) && nl.variant == "on")
        #expect(be.value == .bool(false) && be.variant == "off")
    }

    @Test("the rules of one file share a node budget: past it, rules stay expressions and answer the same")
    func fileNodeBudget() throws {
        // Each flag's rule uses an evaluator of 25 operations 24 times: about 770 nodes, though
        // the file holds the evaluator once. 400 such flags would take about 308,000 nodes.
        let evaluator = #"{"and": [\#(Array(repeating: #"{"==": [{"var": "country"}, "NL"]}"#, count: 8).joined(separator: ", "))]}"#
        let uses = Array(repeating: #"{"$ref": "nl"}"#, count: 24).joined(separator: ", ")
        let flags = (0..<400).map { #""f\#($0)": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"and": [\#(uses)]}, "on", "off"]}}"# }
        let file = #"{"$evaluators": {"nl": \#(evaluator)}, "flags": {\#(flags.joined(separator: ", "))}}"#
        let definitions = try FlagdDefinitions(data: Data(file.utf8), file: "refs.flagd.json")
        let withNodes = definitions.flags.values.filter(\.evaluatesNodes).count
        #expect(withNodes > 0 && withNodes < 400)
        #expect(withNodes * 600 <= LogicProgram.maximumNodesPerFile)
        let nl = EvaluationContext(targetingKey: "u", attributes: ["country": "NL"])
        let be = EvaluationContext(targetingKey: "u", attributes: ["country": "BE"])
        for (key, flag) in definitions.flags {
            #expect(definitions.evaluate(flagKey: key, context: nl).variant == "on", "\(key), nodes: \(flag.evaluatesNodes)")
            #expect(definitions.evaluate(flagKey: key, context: be).variant == "off", "\(key), nodes: \(flag.evaluatesNodes)")
        }
    }

    @Test("a split hashes flag key and targeting key as their joined text", arguments: [
        ("new-checkout", "user-42"), ("", "a"), ("ü-flag", "ü-ser"), (String(repeating: "k", count: 700), String(repeating: "u", count: 900)),
    ])
    func twoPartHash(flagKey: String, targetingKey: String) {
        for total: UInt64 in [1, 100, 2_147_483_647] {
            #expect(Fractional.bucket(flagKey, targetingKey, total: total) == Fractional.bucket(flagKey + targetingKey, total: total))
        }
    }

    /// The targeting data as `FlagdFlag` built it before evaluation read the context in place.
    static func dataObject(_ context: EvaluationContext, flagKey: String, timestamp: Double) -> LogicValue {
        var data = context.attributes.mapValues { LogicValue($0) }
        if let targetingKey = context.targetingKey {
            data["targetingKey"] = .string(targetingKey)
        }
        data["$flagd"] = ["flagKey": .string(flagKey), "timestamp": .double(timestamp)]
        return .object(sorted: data)
    }

    @Test("the specialized forms are the ones compiled")
    func forms() throws {
        var compiler = LogicCompiler()
        guard case .variable(let path, let fallback) = try compiler.compile(LogicValue(json: #"{"var": ["a.b", 1]}"#)) else {
            Issue.record("a literal var path is not compiled to .variable")
            return
        }
        #expect(path.keys == ["a", "b"])
        #expect(fallback?.constant == .double(1))
        guard case .fractional(let split) = try compiler.compile(LogicValue(json: #"{"fractional": [["on", 20], ["off", 80]]}"#)) else {
            Issue.record("a literal split is not compiled to .fractional")
            return
        }
        #expect(split.bucketBy == nil)
        #expect(split.distributions?.map(\.weight) == [20, 80])
        guard case .operation(.fractional, _) = try compiler.compile(LogicValue(json: #"{"fractional": [["on", {"var": "w"}], ["off", 80]]}"#)) else {
            Issue.record("a split with a computed weight must take the general route")
            return
        }
        guard case .affix(let affix) = try compiler.compile(LogicValue(json: #"{"ends_with": [{"var": "email"}, "@example.com"]}"#)),
              case .membership(let membership) = try compiler.compile(LogicValue(json: #"{"in": [{"var": "country"}, ["NL", "BE"]]}"#))
        else {
            Issue.record("starts_with/ends_with with a literal affix and in with a literal array compile to their tests")
            return
        }
        #expect(affix.affix == "@example.com" && !affix.isPrefix)
        #expect(membership.members == [.string("NL"), .string("BE")])
        for general in [#"{"starts_with": [{"var": "email"}, {"var": "prefix"}]}"#, #"{"starts_with": [{"var": "email"}, "a", "b"]}"#,
                        #"{"in": ["NL", "NLBE"]}"#, #"{"in": [{"var": "country"}, {"var": "list"}]}"#] {
            guard case .operation = try compiler.compile(LogicValue(json: general)) else {
                Issue.record("\(general) must take the general route")
                continue
            }
        }
    }

    // MARK: - Generation

    static let paths = ["country", "appVersion", "email", "targetingKey", "$flagd.flagKey", "$flagd.timestamp",
                        "nested.a", "nested.b.c", "list.1", "list.9", "nope", "plan", "$flagd", "nested..a", ".", "list.01"]
    static let strings = ["NL", "BE", "DE", "US", "staff@", "@example.com", "5.2.0", "v5.2", "1.2.3-beta.1", "on", "off", "", "a"]

    static func literal(_ random: inout SplitMix) -> String {
        switch random.below(6) {
        case 0: return json(strings[random.below(strings.count)])
        case 1: return ["0", "1", "5.2", "-3", "20", "1e3"][random.below(6)]
        case 2: return random.below(2) == 0 ? "true" : "false"
        case 3: return "null"
        case 4: return #"["NL", "BE", 1, null]"#
        default: return #"{"k": 1, "j": 2}"#
        }
    }

    static func variable(_ random: inout SplitMix) -> String {
        let path = random.below(10) == 0 ? [#""""#, "1", #"[["country", 1]]"#, #"["nested"]"#][random.below(4)] : json(paths[random.below(paths.count)])
        switch random.below(3) {
        case 0: return #"{"var": \#(path)}"#
        case 1: return #"{"var": [\#(path), \#(literal(&random))]}"#
        default: return #"{"var": [\#(path), {"var": "country"}]}"#
        }
    }

    static func operand(_ random: inout SplitMix, depth: Int) -> String {
        switch random.below(depth > 2 ? 2 : 4) {
        case 0: return literal(&random)
        case 1: return variable(&random)
        default: return rule(&random, depth: depth + 1)
        }
    }

    static func split(_ random: inout SplitMix) -> String {
        var distributions = [#"["on", 20]"#, #"["off", 80]"#, #"["blue"]"#, #"["red", null]"#, #"[true, 5]"#, #"[1, 2]"#]
        if random.below(6) == 0 {
            distributions.append([#"["bad", -1]"#, #"["bad", 1.5]"#, #"["bad", "x"]"#, #"[{"o": 1, "p": 2}, 1]"#, "[]", #""s""#,
                                  #"["big", 2147483648]"#, #"["max", 2147483647]"#][random.below(8)])
        }
        let chosen = (0..<(1 + random.below(3))).map { _ in distributions[random.below(distributions.count)] }
        let bucketBy = [nil, #"{"var": "email"}"#, #""fixed-key""#, "null", #"{"cat": [{"var": "country"}, "-x"]}"#, "7",
                        #"{"var": "list"}"#, #"{"var": "nested"}"#, #"{"var": "plan"}"#][random.below(9)]
        return #"{"fractional": [\#(([bucketBy].compactMap { $0 } + chosen).joined(separator: ", "))]}"#
    }

    static func rule(_ random: inout SplitMix, depth: Int) -> String {
        let a = operand(&random, depth: depth), b = operand(&random, depth: depth)
        switch random.below(depth > 2 ? 10 : 16) {
        case 0: return #"{"==": [\#(a), \#(b)]}"#
        case 1: return #"{"===": [\#(a), \#(b)]}"#
        case 2: return #"{"!=": [\#(a), \#(b)]}"#
        case 3: return #"{"in": [\#(a), \#(random.below(2) == 0 ? #"["NL", "BE", "DE"]"# : b)]}"#
        case 4: return #"{"\#(["<", "<=", ">", ">="][random.below(4)])": [\#(a), \#(b)\#(random.below(3) == 0 ? ", \(literal(&random))" : "")]}"#
        case 5: return #"{"\#(random.below(2) == 0 ? "starts_with" : "ends_with")": [\#(a), \#(b)\#(random.below(8) == 0 ? ", 1" : "")]}"#
        case 6:
            let op = ["<", "<=", "=", "!=", ">", ">=", "^", "~", "bad"][random.below(9)]
            return #"{"sem_ver": [\#(random.below(2) == 0 ? #"{"var": "appVersion"}"# : a), "\#(op)", \#(json(["5.2.0", "1.2.3-beta.1", "v5", "05.1.0", "5.1.9"][random.below(5)]))]}"#
        case 7: return split(&random)
        case 8: return #"{"!": [\#(a)]}"#
        case 9: return variable(&random)
        case 10: return #"{"if": [\#(a), \#(b), \#(operand(&random, depth: depth))]}"#
        case 11: return #"{"\#(random.below(2) == 0 ? "and" : "or")": [\#(a), \#(b)]}"#
        case 12: return #"{"\#(["!==", "!!", "?:"][random.below(3)])": [\#(a), \#(b), \#(operand(&random, depth: depth))]}"#
        case 13: return #"{"\#(["if", "and", "or", "==", "!", "<"][random.below(6)])": []}"#
        case 14: return #"{"if": [\#(a), \#(b), \#(operand(&random, depth: depth)), \#(operand(&random, depth: depth))]}"#
        default: return #"{"some": [{"var": "list"}, {"==": [{"var": ""}, \#(literal(&random))]}]}"#
        }
    }

    static func context(_ random: inout SplitMix) -> EvaluationContext {
        var attributes: [String: TweakContent] = [:]
        if random.below(5) != 0 { attributes["country"] = .string(["NL", "BE", "DE", "FR", "US", ""][random.below(6)]) }
        if random.below(4) != 0 {
            attributes["appVersion"] = [.string("5.2.0"), .string("5.1.9"), .string("v5.3"), .string("1.2.3-beta.1"), .double(5.2), .int(5), .string("05.1.0")][random.below(7)]
        }
        if random.below(3) == 0 { attributes["email"] = .string(["staff@example.com", "user@example.com", ""][random.below(3)]) }
        if random.below(3) == 0 { attributes["nested"] = .object(["a": .int(1), "b": .object(["c": .string("NL")])]) }
        if random.below(3) == 0 { attributes["list"] = .array([.string("NL"), .int(1), .null]) }
        if random.below(8) == 0 { attributes["targetingKey"] = [.string("attribute-key"), .int(7), .null][random.below(3)] }
        if random.below(10) == 0 { attributes["$flagd"] = .string("shadowed") }
        if random.below(6) == 0 { attributes["plan"] = .null }
        let targetingKey: String? = [nil, "", "user-\(random.below(1_000))", "ü-ser"][random.below(4)]
        return EvaluationContext(targetingKey: targetingKey, attributes: attributes)
    }

    static func json(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
