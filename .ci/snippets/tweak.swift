// The tweak tool's doc examples (.ci/snippets.py): the Acme format that "Adding a source" adds to
// the tool, as far as its evaluation example needs it.
import ArgumentParser
import Foundation
import TweakKit
@testable import tweak

struct AcmeDecision { var on: Bool }
struct AcmeFlags: TweakDocument {
    func tweaks(source: String) -> [Tweak] { [] }
    func decide(_ key: String, region: String?, context: EvaluationContext) -> AcmeDecision { AcmeDecision(on: false) }
}
struct AcmeFormat: TweakDocumentFormat {
    var name: String { "Acme flags" }
    func document(from data: Data, source: String) throws -> any TweakDocument { AcmeFlags() }
}
extension SourceFormats {
    static let acme = SourceFormat(option: "acme-flags", format: AcmeFormat())
}
