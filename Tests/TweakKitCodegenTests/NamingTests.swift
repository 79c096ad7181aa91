import Foundation
import Testing
import TweakKit
@testable import TweakKitCodegen

@Suite("Naming")
struct NamingTests {
    @Test("variables become valid Swift member names", arguments: [
        ("display_red_view", "displayRedView"),
        ("max-retries", "maxRetries"),
        ("dark mode", "darkMode"),
        ("2x_assets", "_2xAssets"),
        ("404", "_404"),
        ("default", "`default`"),
        ("class", "`class`"),
        ("self", "selfTweak"),
        ("Type", "type"),
        ("Self", "selfTweak"),
        ("init", "initTweak"),
        ("tweakManager", "tweakManagerTweak"),
        ("URL_path", "urlPath"),
        ("alreadyCamel", "alreadyCamel"),
        ("héllo_wörld", "hélloWörld"),
        ("%%%", "tweak"),
        ("a.b.c", "aBC"),
    ])
    func memberNames(variable: String, expected: String) {
        #expect(SwiftIdentifier.memberName(variable) == expected)
    }

    @Test("a chosen GeneratedPropertyName is kept when valid and repaired when not", arguments: [
        ("prefersHTTP3", "prefersHTTP3"),
        ("for", "`for`"),
        ("2fast", "_2fast"),
        ("my-name", "myName"),
    ])
    func chosenNames(name: String, expected: String) {
        #expect(SwiftIdentifier.chosenMemberName(name) == expected)
    }

    @Test("string literals escape quotes, backslashes, interpolation and control characters")
    func literals() {
        #expect(SwiftIdentifier.stringLiteral("a\"b\\c\n\t\u{1}\\(x)") == #""a\"b\\c\n\t\u{1}\\(x)""#)
    }

    func generate(_ json: String, config: GeneratorConfiguration = GeneratorConfiguration(accessorName: "T")) throws -> [GeneratedFile] {
        let result = TweakFileParser.parse(data: Data(json.utf8), file: "t.json", source: "t.json")
        #expect(result.problems.isEmpty, "\(result.problems)")
        return try AccessorGenerator(configuration: config, sourceName: "t.json", today: .today).generate(result.definitions)
    }

    @Test("two tweaks that would share a property name are an error naming both")
    func collisions() throws {
        #expect(throws: CodegenError("t.json: tweaks a.dark-mode and a.dark_mode would both generate the property 'darkMode'; give one a different GeneratedPropertyName")) {
            try generate(#"{"a": {"dark_mode": {"Value": true}, "dark-mode": {"Value": false}}}"#)
        }
        #expect(throws: CodegenError.self) {
            try generate(#"{"a": {"x": {"Value": 1, "GeneratedPropertyName": "shared"}}, "b": {"y": {"Value": 2, "GeneratedPropertyName": "shared"}}}"#)
        }
        #expect(throws: CodegenError.self) {
            try generate(#"{"my-feature": {"x": {"Value": 1}}, "my_feature": {"y": {"Value": 2}}}"#)
        }
        // Each feature's `enabled` toggle gets the feature's name, so they never collide.
        let files = try generate(#"{"checkout": {"enabled": {"Value": true}}, "search": {"enabled": {"Value": false}}}"#)
        #expect(files[0].contents.contains("var checkoutEnabled: Bool"))
        #expect(files[0].contents.contains("var searchEnabled: Bool"))
    }

    @Test("every type gets its Swift type and a default from the file", arguments: [
        (#"{"Value": true}"#, "Bool", "true"),
        (#"{"Value": 42}"#, "Int", "42"),
        (#"{"Value": -7}"#, "Int", "-7"),
        (#"{"Value": 0.5}"#, "Double", "0.5"),
        (#"{"Value": 2, "Type": "Double"}"#, "Double", "2.0"),
        (#"{"Value": 1.5, "Type": "Float"}"#, "Float", "1.5"),
        (#"{"Value": 1e21}"#, "Double", "1e+21"),
        (#"{"Value": "text"}"#, "String", "\"text\""),
        (#"{"Value": "xyz", "Encrypted": true}"#, "String", "\"\""),
        (#"{"Value": "xyz", "Encrypted": true, "Type": "Int"}"#, "Int", "0"),
        (#"{"Value": "xyz", "Encrypted": true, "Type": "Bool"}"#, "Bool", "false"),
    ])
    func types(fields: String, swiftType: String, literal: String) throws {
        let files = try generate(#"{"f": {"v": \#(fields)}}"#)
        #expect(files[0].contents.contains("var v: \(swiftType) {"))
        #expect(files[0].contents.contains("TweakKey<\(swiftType)>(feature: Features.f, variable: Variables.v, default: \(literal))"))
    }

    @Test("the access level and imports come from the configuration")
    func configuration() throws {
        let json = #"{"f": {"v": {"Value": 1}}}"#
        let internalFiles = try generate(json)
        #expect(internalFiles[0].contents.contains("\ninternal final class T: Sendable"))
        #expect(internalFiles[0].contents.contains("\nimport TweakKit\n"))
        let packageFiles = try generate(json, config: GeneratorConfiguration(accessorName: "T", accessLevel: .package, imports: ["Foundation"]))
        #expect(packageFiles[0].contents.contains("package final class T: Sendable"))
        #expect(packageFiles[0].contents.contains("package import TweakKit"))
        #expect(packageFiles[0].contents.contains("\nimport Foundation\n"))
    }

    @Test("bad configurations are clear errors", arguments: [
        (#"{}"#, "\"accessorName\" must be a non-empty String"),
        (#"{"accessorName": "2Bad"}"#, "is not a valid Swift type name"),
        (#"{"accessorName": "T", "accessLevel": "open"}"#, "\"accessLevel\" must be"),
        (#"{"accessorName": "T", "imports": "Foundation"}"#, "\"imports\" must be an array"),
        (#"{"accessorName": "T", "imports": ["no such"]}"#, "not a module name"),
        (#"{"accessorName": "#, "syntax error"),
    ])
    func badConfiguration(json: String, message: String) {
        do {
            _ = try GeneratorConfiguration(data: Data(json.utf8), file: "config.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.message.hasPrefix("config.json"))
        }
    }

    @Test("Type, Owner and Expires are checked")
    func lifecycleFields() {
        let result = TweakFileParser.parse(data: Data(#"{"f": {"a": {"Value": "x", "Type": "Int"}, "b": {"Value": 1, "Type": "Number"}, "c": {"Value": 1, "Expires": "2024-02-30"}, "d": {"Value": 1.5, "Type": "Int"}, "e": {"Value": 1, "Owner": 5}}}"#.utf8), file: "t.json", source: "t.json")
        #expect(result.problems.map(\.variable) == ["a", "b", "c", "d", "e"])
        #expect(result.problems[0].message.contains("\"Type\" says Int"))
        #expect(result.problems[2].message.contains("ISO date"))
    }

    @Test("lint lists expired tweaks and tweaks without an owner")
    func lint() throws {
        let result = TweakFileParser.parse(data: Data(#"{"f": {"old": {"Value": 1, "Owner": "me", "Expires": "2024-01-01"}, "new": {"Value": 1, "Owner": "me", "Expires": "2030-01-01"}, "orphan": {"Value": 1}}}"#.utf8), file: "t.json", source: "t.json")
        let today = try #require(TweakDefinition.Day(iso: "2025-06-01"))
        let findings = TweakLinter.lint(result.definitions, file: "t.json", today: today)
        #expect(findings.map(\.description) == [
            "t.json:1:8: f.old: expired on 2024-01-01 (owner: me)",
            "t.json:1:130: f.orphan: has no Owner",
        ])
    }
}
