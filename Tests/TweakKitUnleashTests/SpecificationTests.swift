import Foundation
import Testing
import TweakKit
import TweakKitUnleash

/// Unleash's client specification, read from `../shared/specs/unleash-client-specification`
/// (Apache-2.0; it stays there, never copied into this repository): every file `index.json`
/// lists, every `tests` and `variantTests` case.
@Suite("Unleash client specification")
struct SpecificationTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/specs/unleash-client-specification").standardizedFileURL

    /// The files `index.json` lists (empty if it cannot be read: the test below then fails).
    static let files: [String] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("index.json")),
              case .array(let names)? = try? TweakContent(jsonText: String(decoding: data, as: UTF8.self)) else { return [] }
        return names.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }()

    @Test("index.json lists the 22 specification files")
    func index() {
        #expect(Self.files.count == 22)
    }

    @Test("every case of the file passes", arguments: files)
    func specification(file: String) throws {
        let root = try TweakFileError.json(from: Data(contentsOf: Self.directory.appendingPathComponent(file)), file: file)
        let state = try #require(root["state"], "\(file) has no state")
        let features = try UnleashFeatures(root: state, source: file, hostname: nil)
        var count = 0
        for test in root["tests"].flatMap(Self.elements) ?? [] {
            let (description, toggle, context) = try Self.caseParts(test, file: file)
            guard case .bool(let expected)? = test["expectedResult"]?.kind else {
                throw TweakFileError(file: file, location: test.location, message: "\(description): expectedResult must be true or false")
            }
            #expect(features.isEnabled(toggle, context: context) == expected, "\(file): \(description)")
            count += 1
        }
        for test in root["variantTests"].flatMap(Self.elements) ?? [] {
            let (description, toggle, context) = try Self.caseParts(test, file: file)
            let expected = try #require(test["expectedResult"], "\(file): \(description) has no expectedResult")
            let variant = features.variant(toggle, context: context)
            #expect(Self.json(variant) == Self.json(expected), "\(file): \(description)")
            count += 1
        }
        #expect(count > 0, "\(file) has no cases")
    }

    /// The node's value with `null` object members left out (the specification writes absent fields as null).
    static func withoutNullMembers(_ node: JSONNode) -> TweakContent {
        func strip(_ value: TweakContent) -> TweakContent {
            switch value {
            case .object(let members): .object(members.filter { $0.value != .null }.mapValues(strip))
            case .array(let elements): .array(elements.map(strip))
            default: value
            }
        }
        return strip(node.content)
    }

    static func elements(_ node: JSONNode) -> [JSONNode]? {
        if case .array(let elements) = node.kind { elements } else { nil }
    }

    static func caseParts(_ test: JSONNode, file: String) throws -> (String, String, UnleashContext) {
        guard case .string(let description)? = test["description"]?.kind,
              case .string(let toggle)? = test["toggleName"]?.kind,
              case .object(let fields)? = test["context"].map(Self.withoutNullMembers) else {
            throw TweakFileError(file: file, location: test.location, message: "a case needs description, toggleName and context")
        }
        return (description, toggle, UnleashContext(fields: fields))
    }

    /// The variant in the specification's shape, for comparison.
    static func json(_ variant: UnleashVariant) -> TweakContent {
        var object: [String: TweakContent] = [
            "name": .string(variant.name), "enabled": .bool(variant.enabled), "feature_enabled": .bool(variant.featureEnabled),
        ]
        if let payload = variant.payload {
            object["payload"] = .object(["type": .string(payload.type), "value": .string(payload.value)])
        }
        return .object(object)
    }

    static func json(_ node: JSONNode) -> TweakContent? {
        guard case .object(var object)? = Optional(Self.withoutNullMembers(node)) else { return nil }
        // Older cases spell it featureEnabled.
        if let value = object.removeValue(forKey: "featureEnabled") { object["feature_enabled"] = value }
        return .object(object)
    }
}
