import Foundation
import Testing
@testable import TweakKitGrowthBook

/// Every section of GrowthBook's SDK test suite, case by case.
@Suite("GrowthBook SDK specification (cases.json)")
struct GrowthBookSpecTests {
    @Test("the suite loads and has every section this engine runs")
    func suiteLoads() throws {
        let root = try GrowthBookSpec.loaded.get()
        #expect(root["specVersion"]?.string == "0.8.0")
        for section in GrowthBookSpec.sectionNames {
            #expect(Self.handled.contains(section), "section \(section) is neither run nor listed as not applicable")
            #expect(!GrowthBookSpec.cases(section).isEmpty, "section \(section) has no cases")
        }
    }

    /// Sections run below, and those listed in the README as not applicable on a server.
    static let handled: Set<String> = [
        "evalCondition", "hash", "getBucketRange", "chooseVariation", "getQueryStringOverride", "inNamespace",
        "getEqualWeights", "decrypt", "run", "feature", "stickyBucket", "contextualBandit", "urlRedirect",
    ]

    @Test("urlRedirect cases are listed in the README as browser-only")
    func urlRedirectListed() throws {
        let readme = try String(contentsOf: GrowthBookSpec.packageRoot.appending(path: "README.md"), encoding: .utf8)
        #expect(readme.contains("`urlRedirect`"), "the README's GrowthBook section must list the urlRedirect cases and why they do not apply")
        #expect(GrowthBookSpec.cases("urlRedirect").count == 4)
    }

    @Test(arguments: GrowthBookSpec.cases("evalCondition"))
    func evalCondition(_ spec: SpecCase) {
        let savedGroups = spec.fields.count > 4 ? spec[4] : nil
        let result = GrowthBookCondition.evaluate(spec[1], attributes: spec[2], savedGroups: savedGroups)
        #expect(.bool(result) == spec[3])
        // A feature rule's condition is compiled at load: the same answer.
        let compiled = GrowthBookCondition.evaluate(GrowthBookCompiledCondition(spec[1]), attributes: spec[2], savedGroups: savedGroups)
        #expect(.bool(compiled) == spec[3], "compiled")
    }

    @Test(arguments: GrowthBookSpec.cases("hash"))
    func hash(_ spec: SpecCase) throws {
        let seed = try #require(spec[0].string), value = try #require(spec[1].string), version = try #require(spec[2].number)
        let n = GrowthBookBucketing.hash(seed: seed, value: value, version: Int(version))
        #expect(sameJSON(n.map(GrowthBookValue.double) ?? .null, spec[3]))
    }

    @Test(arguments: GrowthBookSpec.cases("getBucketRange"))
    func getBucketRange(_ spec: SpecCase) throws {
        let arguments = try #require(spec[1].array)
        let count = try #require(arguments[0].number), coverage = try #require(arguments[1].number)
        let weights = arguments[2].array?.compactMap(\.number)
        let ranges = GrowthBookBucketing.bucketRanges(variations: Int(count), coverage: coverage, weights: weights)
        #expect(sameJSON(.array(ranges.map { [.double($0.start), .double($0.end)] }), spec[2]))
    }

    @Test(arguments: GrowthBookSpec.cases("chooseVariation"))
    func chooseVariation(_ spec: SpecCase) throws {
        let n = try #require(spec[1].number)
        let ranges = try #require(spec[2].array).map { range in
            GrowthBookRange(start: range.array?.first?.number ?? .nan, end: range.array?.last?.number ?? .nan)
        }
        #expect(.int(GrowthBookBucketing.chooseVariation(n, ranges: ranges)) == spec[3])
    }

    @Test(arguments: GrowthBookSpec.cases("getQueryStringOverride"))
    func getQueryStringOverride(_ spec: SpecCase) throws {
        let key = try #require(spec[1].string), url = try #require(spec[2].string), count = try #require(spec[3].number)
        let forced = GrowthBookBucketing.queryStringOverride(experimentKey: key, url: url, variations: Int(count))
        #expect(forced.map(GrowthBookValue.int) ?? .null == spec[4])
    }

    @Test(arguments: GrowthBookSpec.cases("inNamespace"))
    func inNamespace(_ spec: SpecCase) throws {
        let id = try #require(spec[1].string), namespace = try #require(spec[2].array)
        let slice = GrowthBookNamespace(id: try #require(namespace[0].string), start: try #require(namespace[1].number), end: try #require(namespace[2].number))
        #expect(.bool(GrowthBookBucketing.inNamespace(id, slice)) == spec[3])
    }

    @Test(arguments: GrowthBookSpec.cases("getEqualWeights"))
    func getEqualWeights(_ spec: SpecCase) throws {
        let n = try #require(spec[0].number)
        #expect(sameJSON(.array(GrowthBookBucketing.equalWeights(Int(n)).map(GrowthBookValue.double)), spec[1]))
    }

    @Test(arguments: GrowthBookSpec.cases("decrypt"))
    func decrypt(_ spec: SpecCase) throws {
        let encrypted = try #require(spec[1].string), key = try #require(spec[2].string)
        let decrypted = try? GrowthBookDecryption.decrypt(encrypted, key: key)
        #expect(decrypted.map(GrowthBookValue.string) ?? .null == spec[3])
    }

    @Test(arguments: GrowthBookSpec.cases("run"))
    func run(_ spec: SpecCase) throws {
        let payload = try GrowthBookPayload(json: spec[1], source: spec.testDescription)
        var evaluator = GrowthBookEvaluator(payload: payload, user: try GrowthBookUserContext(json: spec[1]))
        let result = evaluator.run(try GrowthBookExperiment(json: spec[2]))
        #expect(sameJSON(result.value, spec[3]))
        #expect(.bool(result.inExperiment) == spec[4])
        #expect(.bool(result.hashUsed) == spec[5])
    }

    @Test(arguments: GrowthBookSpec.cases("feature"))
    func feature(_ spec: SpecCase) throws {
        try expectFeature(spec)
    }

    @Test(arguments: GrowthBookSpec.cases("contextualBandit"))
    func contextualBandit(_ spec: SpecCase) throws {
        try expectFeature(spec)
    }

    private func expectFeature(_ spec: SpecCase) throws {
        let payload = try GrowthBookPayload(json: spec[1], source: spec.testDescription)
        var evaluator = GrowthBookEvaluator(payload: payload, user: try GrowthBookUserContext(json: spec[1]))
        let result = evaluator.evaluateFeature(try #require(spec[2].string))
        #expect(sameJSON(result.jsonValue, spec[3]), "got \(result.jsonValue.jsonText)\nexpected \(spec[3].jsonText)")
    }

    @Test(arguments: GrowthBookSpec.cases("stickyBucket"))
    func stickyBucket(_ spec: SpecCase) throws {
        let payload = try GrowthBookPayload(json: spec[1], source: spec.testDescription)
        let user = try GrowthBookUserContext(json: spec[1])
        let store = InMemoryGrowthBookStickyBucketStore(documents: try (spec[2].array ?? []).map { try #require(GrowthBookStickyAssignmentsDocument(json: $0)) })
        var evaluator = GrowthBookEvaluator(payload: payload, user: user, stickyBucketStore: store)
        let result = evaluator.evaluateFeature(try #require(spec[3].string))
        let reported = result.experimentResult?.jsonValue ?? .null
        #expect(sameJSON(reported, spec[4]), "got \(reported.jsonText)\nexpected \(spec[4].jsonText)")
        let after = GrowthBookValue.object((evaluator.user.stickyBucketAssignmentDocs ?? [:]).sorted { $0.key < $1.key }
            .map { GrowthBookMember(key: $0.key, value: $0.value.jsonValue) })
        #expect(sameJSON(after, spec[5]), "got \(after.jsonText)\nexpected \(spec[5].jsonText)")
    }
}
