import Foundation
import Testing
import TweakKitGrowthBook

/// GrowthBook's SDK test cases (`cases.json`, MIT), read from `../shared/specs/growthbook/` next
/// to the package root; never copied into this repository.
enum GrowthBookSpec {
    /// The package root: the nearest directory above this file holding a Package.swift.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    static let url = packageRoot.deletingLastPathComponent().appending(path: "shared/specs/growthbook/cases.json")

    /// The whole file, or why it could not be read.
    static let loaded: Result<GrowthBookValue, SpecError> = {
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            return .failure(SpecError(message: "cannot read \(url.path)"))
        }
        do {
            return .success(try GrowthBookValue(jsonText: text))
        } catch {
            return .failure(SpecError(message: "\(url.path) is not JSON: \(error)"))
        }
    }()

    /// The cases of one section, each an array; empty when the file is missing (a separate test
    /// fails then).
    static func cases(_ section: String) -> [SpecCase] {
        guard case .success(let root) = loaded, let cases = root[section]?.array else { return [] }
        return cases.enumerated().map { SpecCase(section: section, index: $0.offset, fields: $0.element.array ?? []) }
    }

    static var sectionNames: [String] {
        guard case .success(let root) = loaded else { return [] }
        return root.members?.map(\.key).filter { $0 != "specVersion" } ?? []
    }
}

struct SpecError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One case of a section: its fields as the file has them.
struct SpecCase: Sendable, CustomTestStringConvertible {
    var section: String
    var index: Int
    var fields: [GrowthBookValue]

    var name: String { fields.first?.string ?? "#\(index)" }
    var testDescription: String { "\(section)[\(index)] \(name)" }

    subscript(position: Int) -> GrowthBookValue { position < fields.count ? fields[position] : .null }
}

/// JSON equality ignoring member order, numbers equal within 1e-6 (the suite writes rounded figures).
func sameJSON(_ a: GrowthBookValue, _ b: GrowthBookValue) -> Bool {
    switch (a, b) {
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
    case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        return x.allSatisfy { member in y.first { $0.key == member.key }.map { sameJSON(member.value, $0.value) } ?? false }
    default:
        if let x = a.number, let y = b.number { return abs(x - y) < 1e-6 }
        return a == b
    }
}
