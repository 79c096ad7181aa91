public import Foundation
import TweakKit

/// The generator's settings, read from `config.json` (JustTweak's file, with three additions).
///
/// ```json
/// {
///     "accessorName": "GeneratedTweakAccessor",
///     "accessLevel": "public",
///     "imports": ["Foundation"],
///     "api": "TweakKit"
/// }
/// ```
/// `accessorName` is required; `accessLevel` is `internal` (the default), `package` or `public`;
/// `imports` lists modules the generated files import besides TweakKit; `api` is `TweakKit` (the
/// default: typed keys on TweakKit's manager) or `JustTweak` (properties on the `JustTweak`
/// module's manager, as JustTweak's own generator wrote them).
public struct GeneratorConfiguration: Sendable, Hashable {
    /// The access level of the generated declarations.
    public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
        case `internal`, `package`, `public`
    }

    /// The API the generated accessor reads and writes through.
    public enum API: String, Sendable, Hashable, CaseIterable {
        /// TweakKit's manager and typed keys (`import TweakKit`).
        case tweakKit = "TweakKit"
        /// The `JustTweak` module's manager, with `tweakWith(feature:variable:)` and
        /// `set(_:feature:variable:)` (`import JustTweak`), for apps that have not moved yet.
        case justTweak = "JustTweak"
    }

    /// The generated type's name (`AppTweaks`), also the files' names.
    public var accessorName: String
    /// The access level of the generated declarations; `internal` by default.
    public var accessLevel: AccessLevel
    /// Modules the generated files import besides TweakKit.
    public var imports: [String]
    /// The API the accessor uses; ``API/tweakKit`` by default.
    public var api: API

    /// Creates a configuration in code rather than from `config.json`.
    ///
    /// ```swift
    /// GeneratorConfiguration(accessorName: "AppTweaks", accessLevel: .public, imports: ["Foundation"])
    /// GeneratorConfiguration(accessorName: "GeneratedTweakAccessor", api: .justTweak)
    /// ```
    public init(accessorName: String, accessLevel: AccessLevel = .internal, imports: [String] = [], api: API = .tweakKit) {
        self.accessorName = accessorName
        self.accessLevel = accessLevel
        self.imports = imports
        self.api = api
    }

    /// Reads `config.json` from `folder` (or the file itself when `url` is a file).
    public init(contentsOf url: URL) throws(CodegenError) {
        var isDirectory: ObjCBool = false
        let file = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url.appendingPathComponent("config.json")
            : url
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CodegenError("\(file.path): configuration file not found")
        }
        try self.init(data: data, file: file.path)
    }

    /// Reads the configuration from JSON `data`; `file` names it in errors.
    public init(data: Data, file: String) throws(CodegenError) {
        let value: TweakContent
        do {
            value = try TweakContent(jsonText: String(decoding: data, as: UTF8.self))
        } catch {
            throw CodegenError("\(file):\(error.location): syntax error: \(error.message)")
        }
        guard case .object(let fields) = value else {
            throw CodegenError("\(file): the configuration must be a JSON object")
        }
        guard case .string(let name)? = fields["accessorName"], !name.isEmpty else {
            throw CodegenError("\(file): \"accessorName\" must be a non-empty String")
        }
        guard SwiftIdentifier.isValidTypeName(name) else {
            throw CodegenError("\(file): \"accessorName\" \"\(name)\" is not a valid Swift type name")
        }
        var level = AccessLevel.internal
        if let field = fields["accessLevel"] {
            guard case .string(let text) = field, let parsed = AccessLevel(rawValue: text) else {
                throw CodegenError("\(file): \"accessLevel\" must be \"internal\", \"package\" or \"public\"")
            }
            level = parsed
        }
        var imports: [String] = []
        if let field = fields["imports"] {
            guard case .array(let items) = field else {
                throw CodegenError("\(file): \"imports\" must be an array of module names")
            }
            for item in items {
                guard case .string(let module) = item, SwiftIdentifier.isValidModuleName(module) else {
                    throw CodegenError("\(file): \"imports\" holds \(item), which is not a module name")
                }
                imports.append(module)
            }
        }
        var api = API.tweakKit
        if let field = fields["api"] {
            guard case .string(let text) = field, let parsed = API(rawValue: text) else {
                throw CodegenError("\(file): \"api\" must be \"TweakKit\" or \"JustTweak\"")
            }
            api = parsed
        }
        self.init(accessorName: name, accessLevel: level, imports: imports, api: api)
    }
}

/// A problem that stops code generation, saying which file or tweaks it is about.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stops generation, naming the file or tweaks.
    public var message: String

    /// Creates an error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
