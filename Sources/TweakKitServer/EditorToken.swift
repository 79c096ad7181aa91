public import Foundation
import TweakKit

/// A named token and what it may do in the editor: given to ``TweakEditor/tokens``, read from a
/// tokens file by ``list(json:source:)``. The history records the token's ``name``; the token
/// itself is never written to a log line, an error or an answer.
///
/// ```swift
/// editor.tokens = try EditorToken.list(json: Data(contentsOf: URL(filePath: "tokens.json")), source: "tokens.json")
/// ```
///
/// with `tokens.json`:
///
/// ```json
/// {"tokens": [{"name": "ada", "token": "f3c1…", "role": "edit"}, {"name": "ci", "token": "9a0e…", "role": "read"}]}
/// ```
public struct EditorToken: Sendable, Hashable {
    /// What a token may do; each role may do what the roles before it may.
    public enum Role: String, Sendable, Hashable, Comparable, CaseIterable {
        /// The page, tweaks, flags, history, evaluations and OFREP.
        case read
        /// Also change flags and tweaks.
        case edit
        /// Everything, including resetting every override at once.
        case admin

        private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
    }

    /// Who the token is: recorded as the author of its changes.
    public var name: String
    /// The secret sent as `Authorization: Bearer <token>`.
    public var token: String
    public var role: Role

    /// The shortest token accepted.
    public static let minimumLength = 8

    public init(name: String, token: String, role: Role) {
        self.name = name
        self.token = token
        self.role = role
    }

    /// Reads `{"tokens": [{"name": "ada", "token": "…", "role": "read"|"edit"|"admin"}, …]}`.
    ///
    /// ```swift
    /// if let text = ProcessInfo.processInfo.environment["TWEAK_SERVE_TOKENS"] {
    ///     editor.tokens = try EditorToken.list(json: Data(text.utf8), source: "TWEAK_SERVE_TOKENS")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - json: the JSON.
    ///   - source: the file or variable it came from, named in errors.
    /// - Throws: ``EditorTokenError`` naming `source`, the entry (`tokens[1]`) and the fault: not
    ///   JSON, a missing or empty name, a token shorter than ``minimumLength``, an unknown role, a
    ///   name or token given twice, no tokens at all. A token is never quoted in the message.
    public static func list(json: Data, source: String) throws(EditorTokenError) -> [EditorToken] {
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(json), maximumDepth: 16)
        } catch {
            throw EditorTokenError(source: source, message: "not JSON: \(error.message) at \(error.location)")
        }
        guard root.members != nil, let list = root["tokens"] else {
            throw EditorTokenError(source: source, message: #"must be an object {"tokens": [{"name": …, "token": …, "role": …}, …]}"#)
        }
        guard case .array(let entries) = list.kind else {
            throw EditorTokenError(source: source, message: "\"tokens\" must be an array, found \(list.kindDescription) at \(list.location)")
        }
        guard !entries.isEmpty else { throw EditorTokenError(source: source, message: "\"tokens\" is empty: give at least one token") }
        var tokens: [EditorToken] = []
        for (index, entry) in entries.enumerated() {
            let place = "tokens[\(index)] (line \(entry.location.line))"
            guard entry.members != nil else {
                throw EditorTokenError(source: source, message: "\(place) must be an object with \"name\", \"token\" and \"role\"")
            }
            guard case .string(let name)? = entry["name"]?.kind, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw EditorTokenError(source: source, message: "\(place): \"name\" must be a non-empty string")
            }
            guard case .string(let token)? = entry["token"]?.kind else {
                throw EditorTokenError(source: source, message: "\(place) (\(name)): \"token\" must be a string")
            }
            guard token.count >= minimumLength, !token.contains(where: \.isWhitespace) else {
                throw EditorTokenError(source: source, message: "\(place) (\(name)): \"token\" must be at least \(minimumLength) characters, without spaces")
            }
            guard case .string(let roleText)? = entry["role"]?.kind, let role = Role(rawValue: roleText) else {
                throw EditorTokenError(source: source, message: "\(place) (\(name)): \"role\" must be \"read\", \"edit\" or \"admin\"")
            }
            if tokens.contains(where: { $0.name == name }) {
                throw EditorTokenError(source: source, message: "\(place): the name \"\(name)\" is given twice; each token needs its own name")
            }
            if let other = tokens.first(where: { $0.token == token }) {
                throw EditorTokenError(source: source, message: "\(place) (\(name)) has the same token as \"\(other.name)\"; each name needs its own token")
            }
            tokens.append(EditorToken(name: name, token: token, role: role))
        }
        return tokens
    }
}

/// A tokens file or variable that cannot be used: where, and what is wrong.
public struct EditorTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or variable.
    public var source: String
    public var message: String

    public var description: String { "\(source): \(message)" }
}
