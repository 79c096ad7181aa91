import Foundation
import Testing
import TweakKit
@testable import TweakKitServer

@Suite("Where OFREP evaluations run: in place while fast over a bounded stack, else on the pool")
struct OFREPInlinePolicyTests {
    /// A provider of one's own that evaluates per context: it may do anything, so it is not bounded.
    final class OwnProvider: ContextualTweakProvider, Sendable {
        let name = "own"
        func allTweaks() -> [Tweak] { [] }
        func tweakWith(feature: String, variable: String) throws -> Tweak { throw TweakError.notFound(feature: feature, variable: variable) }
        func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation { TweakObservation() }
        func evaluatedTweakIDs() -> [TweakID] { [] }
        func evaluate(feature: String, variable: String, context: EvaluationContext) -> TweakEvaluation? { nil }
    }

    @Test("TweakKit's engines and plain providers are bounded; a provider of one's own is not")
    func boundedStacks() throws {
        let stack = try Stack()
        #expect(stack.manager.evaluationIsBounded)
        #expect(OFREPInlinePolicy(manager: stack.manager).evaluatesInPlace(at: .now))
        let own = TweakManager(tweakProviders: [stack.overrides, OwnProvider()])
        #expect(!own.evaluationIsBounded)
        #expect(!OFREPInlinePolicy(manager: own).evaluatesInPlace(at: .now))
    }

    /// Spins for 20 ms of processor time (a sleep would not count).
    static func slowWork() -> Int {
        let start = ContinuousClock.now
        var spins = 0
        while ContinuousClock.now - start < .milliseconds(20) { spins &+= 1 }
        return spins
    }

    @Test("a second evaluation within the calm period that takes more than 2 ms of processor time sends requests to the pool for the calm period; one alone does not")
    func slowEvaluation() throws {
        let policy = OFREPInlinePolicy(manager: try Stack().manager)
        _ = policy.timed { 1 }
        #expect(policy.evaluatesInPlace(at: .now))
        _ = policy.timed(Self.slowWork)
        #expect(policy.evaluatesInPlace(at: .now))
        _ = policy.timed(Self.slowWork)
        #expect(!policy.evaluatesInPlace(at: .now))
        #expect(!policy.evaluatesInPlace(at: .now + OFREPInlinePolicy.calmPeriod - .seconds(1)))
        #expect(policy.evaluatesInPlace(at: .now + OFREPInlinePolicy.calmPeriod + .seconds(1)))
    }

    @Test("time spent sleeping is not processor time: a preempted or waiting evaluation is not slow")
    func sleepingIsNotSlow() throws {
        let policy = OFREPInlinePolicy(manager: try Stack().manager)
        _ = policy.timed { Thread.sleep(forTimeInterval: 0.02) }
        #expect(policy.evaluatesInPlace(at: .now))
    }

    @Test("slow evaluations further apart than the calm period each pass alone")
    func spacedSlowEvaluations() throws {
        let policy = OFREPInlinePolicy(manager: try Stack().manager)
        let start = ContinuousClock.now
        policy.noteSlow(at: start)
        policy.noteSlow(at: start + OFREPInlinePolicy.calmPeriod + .seconds(1))
        #expect(policy.evaluatesInPlace(at: start + OFREPInlinePolicy.calmPeriod + .seconds(2)))
        policy.noteSlow(at: start + OFREPInlinePolicy.calmPeriod + .seconds(3))
        #expect(!policy.evaluatesInPlace(at: start + OFREPInlinePolicy.calmPeriod + .seconds(4)))
    }
}
