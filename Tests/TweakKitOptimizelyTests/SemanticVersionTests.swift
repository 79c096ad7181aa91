import Testing
@testable import TweakKitOptimizely

@Suite("Optimizely semantic versions")
struct SemanticVersionTests {
    @Test("equal, including partial targets and build metadata", arguments: [
        ("2.0.1", "2.0.1"), ("2.9.9-beta", "2.9.9-beta"), ("2.1", "2.1.0"), ("2", "2.12"), ("2.9", "2.9.1"), ("2.9.1", "2.9.1+beta"),
    ])
    func equal(target: String, user: String) {
        #expect(OptimizelySemanticVersion.compare(target: target, user: user) == 0)
    }

    @Test("user greater than target", arguments: [
        ("2.0.0", "2.0.1"), ("2.0", "3.0.1"), ("2.1.2-beta", "2.1.2-release"), ("2.1.3-beta1", "2.1.3-beta2"),
        ("2.9.9-beta", "2.9.9"), ("2.9.9+beta", "2.9.9"), ("3.7.0-prerelease+build", "3.7.0-prerelease+rc"),
        ("2.2.3-beta-beta1", "2.2.3-beta-beta2"), ("2.2.3-beta+beta1", "2.2.3-beta+beta2"), ("2.2.3+beta2-beta1", "2.2.3+beta3-beta2"),
    ])
    func greater(target: String, user: String) {
        #expect(OptimizelySemanticVersion.compare(target: target, user: user) == 1)
    }

    @Test("user less than target", arguments: [
        ("2.0.1", "2.0.0"), ("3.0", "2.0.1"), ("2.3", "2.0.1"), ("2.3.5", "2.3.1"), ("2.9.8", "2.9"), ("2.1.2-release", "2.1.2-beta"),
        ("2.9.9+beta", "2.9.9-beta"), ("3.7.0+build3.7.0-prerelease+build", "3.7.0-prerelease"), ("2.1.3-beta-beta2", "2.1.3-beta"),
        ("2.1.3-beta1+beta3", "2.1.3-beta1+beta2"), ("10.0.0", "9.9.9"),
        ("99999999999999999999", "99999999999999999998"), ("1.010", "1.9"),
    ])
    func less(target: String, user: String) {
        #expect(OptimizelySemanticVersion.compare(target: target, user: user) == -1)
    }

    @Test("invalid versions compare to nothing", arguments: [
        "-", ".", "..", "+", "+test", " ", "2 .3. 0", "2.", ".2.2", "3.7.2.2", "3.x", ",", "+build-prerelease", "2..2", "",
    ])
    func invalid(version: String) {
        #expect(OptimizelySemanticVersion.compare(target: "2.1.0", user: version) == nil)
        #expect(OptimizelySemanticVersion.compare(target: version, user: "2.1.0") == nil)
    }
}
