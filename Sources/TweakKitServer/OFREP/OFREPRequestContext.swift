import TweakKit

/// Reads the evaluation context of an OFREP request body, `{"context": {"targetingKey": "…", …}}`.
enum OFREPRequestBody {
    /// Why a body was refused, as an OFREP error code and details.
    struct Problem: Error, Equatable {
        var code: String
        var details: String
    }

    /// The context of `bytes`: an empty body, `{}` and a context without `targetingKey` are all
    /// fine (OpenFeature's providers send `{}` or `{"context": {}}` when the caller gives none).
    /// `null` attributes are left out.
    ///
    /// - Throws: `PARSE_ERROR` when the body is not JSON, `INVALID_CONTEXT` when it is not an
    ///   object, `context` is not an object, or `targetingKey` is not a string.
    static func context(from bytes: [UInt8]) throws(Problem) -> EvaluationContext {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return EvaluationContext(targetingKey: nil) }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, maximumDepth: 64)
        } catch {
            throw Problem(code: "PARSE_ERROR", details: "the request body is not JSON: \(error)")
        }
        guard root.members != nil else {
            throw Problem(code: "INVALID_CONTEXT", details: #"the request body must be an object, {"context": {…}}, found "# + root.kindDescription)
        }
        guard let contextNode = root["context"], !contextNode.isNull else { return EvaluationContext(targetingKey: nil) }
        guard let members = contextNode.members else {
            throw Problem(code: "INVALID_CONTEXT", details: #""context" must be an object, found "# + contextNode.kindDescription + " at \(contextNode.location)")
        }
        var context = EvaluationContext(targetingKey: nil)
        for member in members {
            if member.key == "targetingKey" {
                switch member.value.kind {
                case .string(let key): context.targetingKey = key
                case .null: break
                default:
                    throw Problem(code: "INVALID_CONTEXT", details: #""targetingKey" must be a string, found "# + member.value.kindDescription + " at \(member.value.location)")
                }
            } else if let value = member.value.tweakValue {
                context.attributes[member.key] = value
            }
        }
        return context
    }
}
