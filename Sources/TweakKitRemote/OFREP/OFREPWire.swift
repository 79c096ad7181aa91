import Foundation
import TweakKit

/// OFREP's JSON, read and written: evaluation answers to ``TweakEvaluation``s, contexts to
/// request bodies, `Retry-After` to a date.
enum OFREPWire {
    /// The request body for `context`: `{"context": {"targetingKey": …, …attributes}}`.
    static func body(for context: EvaluationContext) -> String {
        var fields = context.attributes
        if let key = context.targetingKey { fields["targetingKey"] = .string(key) }
        let body: TweakContent = .object(["context": .object(fields)])
        return (try? body.jsonText()) ?? #"{"context":{}}"#
    }

    /// One flag's answer (a success or a failure) as an evaluation, and its key.
    ///
    /// A success without `value` has no value (the caller's default applies); `variant` `""` is no
    /// variant; a reason outside OpenFeature's is ``EvaluationReason/unknown`` with the server's
    /// word in `flagMetadata["ofrepReason"]`. A failure has reason ERROR and its code
    /// (`FLAG_NOT_FOUND`, `PARSE_ERROR`, `TARGETING_KEY_MISSING`, `INVALID_CONTEXT`, `GENERAL`;
    /// any other code is GENERAL, named in the message).
    static func evaluation(_ fields: [String: TweakContent]) -> TweakEvaluation {
        var metadata: [String: TweakContent] = [:]
        if case .object(let found)? = fields["metadata"] { metadata = found }
        if let code = fields["errorCode"]?.stringValueIfString {
            let known = EvaluationErrorCode(rawValue: code)
            var message = fields["errorDetails"]?.stringValueIfString ?? code
            if known == nil { message = "\(code): \(message)" }
            return TweakEvaluation(value: nil, reason: .error, errorCode: known ?? .general, errorMessage: message, flagMetadata: metadata)
        }
        let wireReason = fields["reason"]?.stringValueIfString
        let reason = wireReason.flatMap(EvaluationReason.init(rawValue:)) ?? .unknown
        if let wireReason, EvaluationReason(rawValue: wireReason) == nil { metadata["ofrepReason"] = .string(wireReason) }
        let variant = fields["variant"]?.stringValueIfString.flatMap { $0.isEmpty ? nil : $0 }
        return TweakEvaluation(value: fields["value"], variant: variant, reason: reason, flagMetadata: metadata)
    }

    /// The flags of a bulk answer, `{"flags": [{…}, …]}`, by key.
    ///
    /// - Throws: ``RemoteError`` `.invalidPayload` when the answer is not JSON, has no `flags`
    ///   array, or a flag has no string `key`.
    static func bulk(_ data: Data, source: String, baseURL: URL) throws(RemoteError) -> (flags: [String: TweakEvaluation], eventStreams: [URL]) {
        guard case .object(let root) = try object(data, source: source), case .array(let flags)? = root["flags"] else {
            throw RemoteError(.invalidPayload, #"\#(source): a bulk evaluation must be {"flags": [...]}"#)
        }
        var evaluations: [String: TweakEvaluation] = [:]
        for (index, flag) in flags.enumerated() {
            guard case .object(let fields) = flag, let key = fields["key"]?.stringValueIfString else {
                throw RemoteError(.invalidPayload, "\(source): flags[\(index)] is not an object with a string \"key\"")
            }
            evaluations[key] = evaluation(fields)
        }
        return (evaluations, eventStreams(root["eventStreams"], baseURL: baseURL))
    }

    /// The server-sent event streams a bulk answer announces (OFREP's `eventStreams`): entries of
    /// type `sse` with a `url`, or an `endpoint` whose `requestUri` is joined to its `origin` (the
    /// base URL's when absent). Other types and malformed entries are skipped; at most 8 are kept.
    static func eventStreams(_ value: TweakContent?, baseURL: URL) -> [URL] {
        guard case .array(let entries)? = value else { return [] }
        var urls: [URL] = []
        for entry in entries.prefix(64) where urls.count < 8 {
            guard case .object(let fields) = entry, fields["type"]?.stringValueIfString == "sse" else { continue }
            if let text = fields["url"]?.stringValueIfString, let url = URL(string: text), url.scheme == "http" || url.scheme == "https" {
                urls.append(url)
            } else if case .object(let endpoint)? = fields["endpoint"], let requestURI = endpoint["requestUri"]?.stringValueIfString,
                requestURI.hasPrefix("/")
            {
                let origin = endpoint["origin"]?.stringValueIfString ?? origin(of: baseURL)
                if let url = URL(string: origin + requestURI), url.scheme == "http" || url.scheme == "https" { urls.append(url) }
            }
        }
        return urls
    }

    /// `scheme://host[:port]` of `url`.
    static func origin(of url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.string ?? ""
    }

    /// Parses an answer's JSON; `null` members of objects are left out (an absent field).
    static func object(_ data: Data, source: String) throws(RemoteError) -> TweakContent {
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data), maximumDepth: 128)
        } catch {
            throw RemoteError(.invalidPayload, "\(source): the answer is not JSON: \(error)")
        }
        guard case .object = root.content else {
            throw RemoteError(.invalidPayload, "\(source): the answer is not a JSON object")
        }
        return withoutNullMembers(root.content)
    }

    private static func withoutNullMembers(_ value: TweakContent) -> TweakContent {
        switch value {
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(withoutNullMembers))
        case .array(let elements): .array(elements.map(withoutNullMembers))
        default: value
        }
    }

    /// When a `429`'s `Retry-After` allows the next request: a number of seconds, an HTTP date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`) or, as the OFREP document shows, an ISO 8601 date-time.
    /// `nil` when absent or unreadable.
    static func retryDate(_ header: String?, now: Date) -> Date? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Int(text), seconds >= 0 { return now.addingTimeInterval(TimeInterval(seconds)) }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    /// The flagd rule for a key's tweak: `feature.variable` when dotted, `key.enabled` for a
    /// Boolean, `key.value` otherwise.
    static func id(forKey key: String, isBoolean: Bool) -> TweakID {
        if let id = TweakID(parsing: key) { return id }
        return TweakID(feature: key, variable: isBoolean ? Tweak.enabledVariable : "value")
    }

    /// The key a tweak is asked for by: the bare feature for `enabled` and `value`, as flagd names them.
    static func key(for id: TweakID) -> String {
        id.variable == Tweak.enabledVariable || id.variable == "value" ? id.feature : id.description
    }
}

extension TweakContent {
    /// The string of a `.string`, and `nil` for anything else (no conversion).
    var stringValueIfString: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
