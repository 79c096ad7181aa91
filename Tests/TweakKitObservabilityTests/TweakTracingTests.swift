import InMemoryTracing
import Instrumentation
import Testing
import Tracing
import TweakKit
import TweakKitTesting
import TweakKitTracing

@Suite("Span events for evaluations")
struct TweakTracingTests {
    let tracer = InMemoryTracer()
    let manager = TweakManager(tweakProviders: [TweakFixtureProvider(["ui.label": "Hello"], name: "defaults")])

    init() {
        manager.addHook(TweakTracingHook(tracer: tracer))
    }

    @Test("an evaluation inside an active span adds a feature_flag.evaluation event with the flag's attributes")
    func eventOnActiveSpan() throws {
        let span = tracer.startSpan("request")
        InstrumentationContext.$current.withValue(span.context) {
            _ = manager.value(for: TweakKey("ui", "label", default: "?"), context: ["targetingKey": "user-1"])
            _ = manager.value(for: TweakKey("ui", "missing", default: 0))
        }
        span.end()
        let events = span.events
        #expect(events.map(\.name) == ["feature_flag.evaluation", "feature_flag.evaluation"])
        let found = try #require(events.first?.attributes)
        #expect(found["feature_flag.key"]?.toSpanAttribute() == "ui.label")
        #expect(found["feature_flag.result.reason"]?.toSpanAttribute() == "static")
        #expect(found["feature_flag.result.value"]?.toSpanAttribute() == "Hello")
        #expect(found["feature_flag.provider.name"]?.toSpanAttribute() == "defaults")
        #expect(found["feature_flag.context.id"]?.toSpanAttribute() == "user-1")
        let missing = try #require(events.last?.attributes)
        #expect(missing["error.type"]?.toSpanAttribute() == "flag_not_found")
        #expect(missing["feature_flag.result.reason"]?.toSpanAttribute() == "error")
    }

    @Test("with swift-distributed-tracing's no-op tracer the hook is inert; with a real tracer it is not")
    func inertWithoutTracer() {
        #expect(TweakTracingHook(tracer: NoOpTracer()).isInert)
        #expect(!TweakTracingHook(tracer: tracer).isInert)
    }

    @Test("with no active span an evaluation records nothing")
    func noSpan() {
        #expect(manager.value(for: TweakKey("ui", "label", default: "?")) == "Hello")
        #expect(tracer.activeSpans.isEmpty)
        #expect(tracer.finishedSpans.isEmpty)
    }
}
