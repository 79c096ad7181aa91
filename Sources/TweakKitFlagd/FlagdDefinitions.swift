public import Foundation
public import TweakKit

/// A flagd flag definition file (OpenFeature's flagd format), checked and compiled.
///
/// Flags that break the schema (an unknown operator, a bad `$ref`, a default variant that is not
/// a variant, mixed variant types…) are reported in
/// ``problems`` and kept in ``invalidFlags``: they evaluate to the caller's default with reason
/// ERROR and error code PARSE_ERROR, while the other flags load and serve.
///
/// ```swift
/// let definitions = try FlagdDefinitions(contentsOf: URL(filePath: "flags.flagd.json"))
/// let evaluation = definitions.evaluate(flagKey: "new-checkout", context: ["targetingKey": "user-1"])
/// ```
public struct FlagdDefinitions: Sendable {
    /// The valid flags, by key.
    public let flags: [String: FlagdFlag]
    /// Flags that failed to load, by key, with the reason.
    public let invalidFlags: [String: String]
    /// The tweak address of each invalid flag (Boolean-looking variants make it `<key>.enabled`).
    let invalidFlagIDs: [String: TweakID]
    /// The flag at each tweak address, valid and invalid flags alike (see ``flagKey(for:)``).
    let addresses: [TweakID: FlagAddress]
    /// One error per invalid flag, naming the file, the flag and the problem.
    public let problems: [TweakFileError]
    /// The file's name, for errors.
    public let file: String

    /// The largest flag definition file read: 4 MiB. Larger input throws `TweakFileError`.
    public static let maximumInputSize = 4 << 20

    /// Reads and checks a flag definition file.
    ///
    /// - Throws: `TweakFileError` when the file is missing, not JSON (with line and column),
    ///   or has no `flags` object. Problems of single flags do not throw.
    public init(contentsOf url: URL) throws(TweakFileError) {
        try self.init(data: TweakFileError.contents(of: url), file: url.path)
    }

    /// Reads and checks flag definitions from JSON `data`; `file` names them in errors.
    public init(data: Data, file: String) throws(TweakFileError) {
        try self.init(root: TweakFileError.json(from: data, file: file, maximumSize: Self.maximumInputSize, what: "flagd definitions"), file: file)
    }

    package init(root: JSONNode, file: String) throws(TweakFileError) {
        guard root.members != nil else {
            throw TweakFileError(file: file, location: root.location, message: "a flag definition file must be an object with \"flags\", found \(root.kindDescription)")
        }
        guard let flagsNode = root["flags"], let flagMembers = flagsNode.members else {
            throw TweakFileError(file: file, location: root.location, message: "a flag definition file needs a \"flags\" object")
        }
        var evaluators: [String: LogicValue] = [:]
        var problems: [TweakFileError] = []
        if let evaluatorsNode = root["$evaluators"] {
            if let members = evaluatorsNode.members {
                for member in members { evaluators[member.key] = LogicValue(member.value) }
            } else {
                problems.append(TweakFileError(file: file, location: evaluatorsNode.location, message: "\"$evaluators\" must be an object of named rules"))
            }
        }
        var flags: [String: FlagdFlag] = [:]
        var invalid: [String: String] = [:]
        var invalidIDs: [String: TweakID] = [:]
        // One compiler for the file: each evaluator compiles once, however many flags refer to it.
        var compiler = LogicCompiler(evaluators: evaluators)
        for member in flagMembers {
            do {
                flags[member.key] = try Self.flag(member.key, member.value, compiler: &compiler)
            } catch {
                invalid[member.key] = error.message
                let looksBoolean: Bool
                if case .bool? = member.value["variants"]?.members?.first?.value.kind { looksBoolean = true } else { looksBoolean = false }
                invalidIDs[member.key] = FlagdFlag.id(forKey: member.key, isBoolean: looksBoolean)
                problems.append(TweakFileError(file: file, location: error.location ?? member.keyLocation, feature: member.key, message: error.message))
            }
        }
        self.flags = flags
        self.invalidFlags = invalid
        self.invalidFlagIDs = invalidIDs
        self.addresses = Self.addresses(flags: flags, invalidIDs: invalidIDs)
        self.problems = problems
        self.file = file
    }

    /// Whether `root` looks like flagd definitions (an object with a `flags` object).
    package static func isFlagd(_ root: JSONNode) -> Bool {
        root["flags"]?.members != nil
    }

    struct FlagProblem: Error {
        var message: String
        var location: SourceLocation?
    }

    static func flag(_ key: String, _ node: JSONNode, compiler: inout LogicCompiler) throws(FlagProblem) -> FlagdFlag {
        guard node.members != nil else {
            throw FlagProblem(message: "a flag must be an object, found \(node.kindDescription)", location: node.location)
        }
        guard let stateNode = node["state"], case .string(let stateText) = stateNode.kind, let state = FlagdFlag.State(rawValue: stateText) else {
            throw FlagProblem(message: "\"state\" must be \"ENABLED\" or \"DISABLED\"", location: node["state"]?.location ?? node.location)
        }
        guard let variantsNode = node["variants"], let variantMembers = variantsNode.members, !variantMembers.isEmpty else {
            throw FlagProblem(message: "\"variants\" must be a non-empty object", location: node["variants"]?.location ?? node.location)
        }
        var variants: [String: TweakContent] = [:]
        var family: String?
        for variant in variantMembers {
            guard let value = variant.value.tweakValue, variant.value.kind.isVariantKind else {
                throw FlagProblem(message: "variant \"\(variant.key)\" must be a Boolean, number, String or object, found \(variant.value.kindDescription)", location: variant.value.location)
            }
            if case .int(let int) = value, int.magnitude > 9_007_199_254_740_991 {  // magnitude: abs(Int.min) traps
                throw FlagProblem(message: "variant \"\(variant.key)\" is \(int), beyond the safe integer range ±(2^53−1)", location: variant.value.location)
            }
            let valueFamily = value.variantFamily
            if let family, family != valueFamily {
                throw FlagProblem(message: "variants mix types: \"\(variant.key)\" is \(valueFamily), others are \(family)", location: variant.value.location)
            }
            family = valueFamily
            variants[variant.key] = value
        }
        var defaultVariant: String?
        if let defaultNode = node["defaultVariant"] {
            switch defaultNode.kind {
            case .null, .string(""): break  // flagd reads "" as no default variant
            case .string(let name):
                guard variants[name] != nil else {
                    throw FlagProblem(message: "\"defaultVariant\" \"\(name)\" is not one of the variants (\(variants.keys.sorted().joined(separator: ", ")))", location: defaultNode.location)
                }
                defaultVariant = name
            default:
                throw FlagProblem(message: "\"defaultVariant\" must be a String naming a variant", location: defaultNode.location)
            }
        }
        var targeting: LogicExpression?
        if let targetingNode = node["targeting"] {
            guard let members = targetingNode.members else {
                throw FlagProblem(message: "\"targeting\" must be an object (a JsonLogic rule), found \(targetingNode.kindDescription)", location: targetingNode.location)
            }
            if !members.isEmpty {
                do {
                    targeting = try compiler.compile(LogicValue(targetingNode))
                } catch {
                    throw FlagProblem(message: "targeting\(error.path): \(error.message)", location: targetingNode.location)
                }
            }
        }
        var metadata: [String: TweakContent] = [:]
        if let metadataNode = node["metadata"] {
            guard let members = metadataNode.members else {
                throw FlagProblem(message: "\"metadata\" must be an object", location: metadataNode.location)
            }
            for member in members {
                guard let value = member.value.tweakValue, value.kind.isScalar else {
                    throw FlagProblem(message: "metadata \"\(member.key)\" must be a Boolean, number or String", location: member.value.location)
                }
                metadata[member.key] = value
            }
        }
        // A disabled flag never evaluates its rule: it takes nothing from the file's node budget.
        let program = state == .enabled ? targeting.flatMap { LogicProgram.program($0, budget: &compiler.nodeBudget) } : nil
        return FlagdFlag(key: key, state: state, variants: variants, defaultVariant: defaultVariant, metadata: metadata,
                         targeting: targeting, program: program)
    }
}

extension JSONNode.Kind {
    var isVariantKind: Bool {
        switch self {
        case .bool, .int, .double, .string, .object: true
        case .null, .array: false
        }
    }
}

extension TweakContent {
    /// The flagd flag type a variant value belongs to.
    var variantFamily: String {
        switch self {
        case .bool: "Boolean"
        case .int, .float, .double: "number"
        case .string: "String"
        case .array, .object, .null: "object"
        }
    }
}
