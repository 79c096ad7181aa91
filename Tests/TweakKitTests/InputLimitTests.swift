import Foundation
import Testing
@testable import TweakKit

/// A valid tweaks document of at least `size` bytes: one tweak padded with white space.
func paddedTweaksFile(size: Int) -> Data {
    let body = #"{"ui": {"label": {"Value": "x"}}}"#
    return Data((String(repeating: " ", count: max(0, size - body.utf8.count)) + body).utf8)
}

@Suite("Input limits: oversized and deeply nested input is refused with a clear error")
struct InputLimitTests {
    @Test("a tweaks file at the 16 MiB limit loads; one byte more is refused, naming the file and the limit")
    func tweaksFile() throws {
        let atLimit = paddedTweaksFile(size: TweakInputLimits.tweaksFile)
        #expect(atLimit.count == TweakInputLimits.tweaksFile)
        #expect(try LocalTweakProvider(data: atLimit, name: "Tweaks.json").allTweaks().count == 1)
        #expect {
            try LocalTweakProvider(data: paddedTweaksFile(size: TweakInputLimits.tweaksFile + 1), name: "Tweaks.json")
        } throws: { error in
            (error as? TweakFileError)?.description == "Tweaks.json: the input is 16777217 bytes, more than the 16 MiB limit for a tweaks file"
        }
    }

    @Test("the tweaks document format refuses oversized input too")
    func tweaksDocument() {
        #expect {
            try TweakFileFormat().document(from: paddedTweaksFile(size: TweakInputLimits.tweaksFile + 10), source: "remote")
        } throws: { error in
            (error as? TweakFileError)?.message.contains("more than the 16 MiB limit for a tweaks file") == true
        }
    }

    @Test("the shared file reader stops at its 16 MiB limit instead of reading a huge file whole")
    func fileReader() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("huge.json")
        try paddedTweaksFile(size: TweakInputLimits.fileSize + 1).write(to: url)
        #expect {
            try TweakFileError.contents(of: url)
        } throws: { error in
            (error as? TweakFileError)?.description == "\(url.path): the input is larger than 16777216 bytes, more than the 16 MiB limit for a file TweakKit reads"
        }
        let result = TweakFileParser.parse(contentsOf: url)
        #expect(result.problems.first?.message.contains("16 MiB limit") == true)
        #expect(result.tweaks.isEmpty)
    }

    @Test("an overrides file over 4 MiB is refused with the file and the limit")
    func overridesFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("overrides.json")
        let body = #"{"ui": {"label": "x"}}"#
        try Data((String(repeating: "\n", count: TweakInputLimits.overridesFile) + body).utf8).write(to: url)
        #expect {
            try PersistentTweakProvider(fileURL: url, pollInterval: nil)
        } throws: { error in
            (error as? TweakFileError)?.message.contains("more than the 4 MiB limit for an overrides file") == true
        }
    }

    @Test("JSON nested 100,000 levels deep is a syntax error at its place, not a stack overflow")
    func deepNesting() {
        let deep = Data(String(repeating: "[", count: 100_000).utf8)
        #expect {
            try LocalTweakProvider(data: deep, name: "deep.json")
        } throws: { error in
            guard let error = error as? TweakFileError else { return false }
            return error.message == "syntax error: nesting is deeper than 512 levels" && error.location == SourceLocation(line: 1, column: 513)
        }
    }

    @Test("numbers near and beyond Int's range format as JavaScript prints them", arguments: [
        (1e20, "100000000000000000000"),
        (9.2e18, "9200000000000000000"),
        (9.3e18, "9300000000000000000"),
        (-9223372036854775808.0, "-9223372036854776000"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (1e-7, "1e-7"),
        (0.000001, "0.000001"),
        (Double.nan, "NaN"),
        (-Double.infinity, "-Infinity"),
    ])
    func javaScriptNumbers(number: Double, text: String) {
        #expect(JavaScriptNumber.string(number) == text)
    }
}
