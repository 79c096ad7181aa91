import Foundation
import Testing
@testable import TweakKit

@Suite("LocalTweakProvider")
struct LocalTweakProviderTests {
    @Test("reads the JustTweak format with every field")
    func readsExample() throws {
        let provider = try Fixtures.example()
        #expect(provider.name == "LocalTweaks_example.json")
        let label = try provider.tweakWith(feature: "ui_customization", variable: "label_text")
        #expect(label.content == "Test value")
        #expect(label.title == "Label Text")
        #expect(label.desc == "the title of the main label")
        #expect(label.group == "UI Customization")
        #expect(label.source == "LocalTweaks_example.json")
        let answer = try provider.tweakWith(feature: "general", variable: "answer_to_the_universe")
        #expect(answer.content == .int(42))
        #expect(answer.generatedPropertyName == "definitiveAnswer")
        #expect(try provider.tweakWith(feature: "ui_customization", variable: "red_view_alpha_component").content == .double(1.0))
        let encrypted = try provider.tweakWith(feature: "general", variable: "encrypted_answer_to_the_universe")
        #expect(encrypted.isEncrypted)
        #expect(provider.features["ui_customization"]?.first == "display_red_view")
        #expect(throws: TweakError.notFound(feature: "general", variable: "nope")) {
            try provider.tweakWith(feature: "general", variable: "nope")
        }
    }

    @Test("reads the feature toggle list format")
    func toggleList() throws {
        let provider = try LocalTweakProvider(fileURL: Fixtures.url("FeatureToggles"))
        #expect(provider.featureEnabledState("addItem") == true)
        #expect(provider.featureEnabledState("addCategory") == false)
        #expect(provider.featureEnabledState("unknown") == nil)
        let manager = TweakManager(tweakProviders: [provider])
        #expect(manager.isFeatureEnabled("addItem"))
        #expect(!manager.isFeatureEnabled("addCategory"))
    }

    func fileError(_ text: String) throws -> TweakFileError {
        let url = try writeTemporaryFile(text)
        do {
            _ = try LocalTweakProvider(fileURL: url)
            Issue.record("expected an error")
            return TweakFileError(file: "", message: "")
        } catch {
            #expect(error.file == url.path)
            return error
        }
    }

    @Test("a missing file is an error naming it")
    func missingFile() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("absent.json")
        #expect(throws: TweakFileError(file: url.path, message: "file not found")) {
            try LocalTweakProvider(fileURL: url)
        }
    }

    @Test("a syntax error names the line and column")
    func syntaxError() throws {
        let error = try fileError("{\n  \"ui\": {\n    \"x\": {\"Value\": tru}\n  }\n}")
        #expect(error.location == SourceLocation(line: 3, column: 20))
        #expect(error.message.contains("syntax error"))
        #expect(error.description.hasPrefix(error.file + ":3:20: syntax error"))
    }

    @Test("structural problems name the feature and variable", arguments: [
        (#"[1, 2]"#, nil, nil, "top level must be an object"),
        (#"{"ui": 3}"#, "ui", nil, "feature must be an object"),
        (#"{"ui": {"x": true}}"#, "ui", "x", "variable must be an object"),
        (#"{"ui": {"x": {"Title": "X"}}}"#, "ui", "x", "\"Value\" is missing"),
        (#"{"ui": {"x": {"Value": [1]}}}"#, "ui", "x", "must be a Bool, number or String, found an array"),
        (#"{"ui": {"x": {"Value": {"a": 1}}}}"#, "ui", "x", "found an object"),
        (#"{"ui": {"x": {"Value": null}}}"#, "ui", "x", "found null"),
        (#"{"ui": {"x": {"Value": 1, "Title": 2}}}"#, "ui", "x", "\"Title\" must be a String"),
        (#"{"ui": {"x": {"Value": 1, "Encrypted": "yes"}}}"#, "ui", "x", "\"Encrypted\" must be a Bool"),
        (#"{"featureToggles": [{"feature": "a"}]}"#, "a", nil, "\"enabled\" must be a Bool"),
        (#"{"featureToggles": [{"enabled": true}]}"#, nil, nil, "non-empty String \"feature\""),
    ] as [(String, String?, String?, String)])
    func structuralErrors(text: String, feature: String?, variable: String?, message: String) throws {
        let error = try fileError(text)
        #expect(error.feature == feature)
        #expect(error.variable == variable)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.location != nil)
    }

    @Test("the parser reports every problem of a file, not just the first")
    func allProblems() throws {
        let url = try writeTemporaryFile(#"{"a": {"x": {}, "y": {"Value": [1]}, "z": {"Value": 1}}}"#)
        let result = TweakFileParser.parse(contentsOf: url)
        #expect(result.problems.count == 2)
        #expect(result.tweaks.map(\.variable) == ["z"])
    }

    @Test("several files stack: the first wins, each reports its own source")
    func stacking() throws {
        let top = try LocalTweakProvider(data: Data(#"{"ui_customization": {"label_text": {"Value": "Top"}}}"#.utf8), name: "top.json")
        let manager = TweakManager(tweakProviders: [top, try Fixtures.example()])
        let label = try manager.tweakWith(feature: "ui_customization", variable: "label_text")
        #expect(label.content == "Top")
        #expect(label.source == "top.json")
        // Metadata from the lower file fills what the top file does not say.
        #expect(label.title == "Label Text")
        #expect(label.desc == "the title of the main label")
        #expect(try manager.tweakWith(feature: "ui_customization", variable: "display_red_view").source == "LocalTweaks_example.json")
    }
}
