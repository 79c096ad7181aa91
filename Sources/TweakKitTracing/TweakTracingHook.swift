public import Tracing
public import TweakKit
import Instrumentation

/// A `TweakHook` that adds a `feature_flag.evaluation` event to the active span for every
/// evaluation, with OpenTelemetry's feature-flag attributes.
///
/// ```swift
/// InstrumentationSystem.bootstrap(tracer)      // e.g. swift-otel's
/// manager.addHook(TweakTracingHook())
///
/// try await withSpan("GET /checkout") { _ in
///     manager.value(for: .newCheckout)         // the span gets a feature_flag.evaluation event
/// }
/// ```
///
/// The event's attributes: `feature_flag.key`, `feature_flag.result.reason`, and when known
/// `feature_flag.result.variant`, `feature_flag.result.value` (when there is no variant),
/// `feature_flag.provider.name`, `feature_flag.context.id` (the targeting key), `error.type` and
/// `feature_flag.error.message`. With no active span the hook does nothing; made with the no-op
/// tracer it is inert (``isInert``) and costs a lookup nothing.
public struct TweakTracingHook: TweakHook {
    /// The event's name.
    public static let eventName = "feature_flag.evaluation"

    private let tracer: (any Tracer)?

    /// - Parameter tracer: where to find the active span; `nil` uses the bootstrapped one
    ///   (`InstrumentationSystem.tracer`), read at each evaluation.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
    }

    /// `true` when the hook was made with swift-distributed-tracing's no-op tracer
    /// (`TweakTracingHook(tracer: NoOpTracer())`): there is never a span to add to, so the manager
    /// keeps lookups on the hook-free path. A hook that uses the bootstrapped tracer (no `tracer`)
    /// is never inert: the tracer may be bootstrapped, or set for a task, later.
    public var isInert: Bool {
        tracer is NoOpTracer
    }

    public func finally(_ hook: TweakHookContext, details: TweakHookDetails) {
        guard let context = InstrumentationContext.current,
              let span = (tracer ?? InstrumentationSystem.tracer).activeSpan(identifiedBy: context)
        else { return }
        span.addEvent(SpanEvent(name: Self.eventName, attributes: Self.attributes(hook, details: details)))
    }

    /// The event's attributes for one evaluation.
    public static func attributes(_ hook: TweakHookContext, details: TweakHookDetails) -> SpanAttributes {
        var attributes: SpanAttributes = [:]
        attributes[FeatureFlagAttributes.key] = details.flagKey
        attributes[FeatureFlagAttributes.reason] = FeatureFlagAttributes.reason(details.reason)
        if let variant = details.variant {
            attributes[FeatureFlagAttributes.variant] = variant
        } else if let value = details.value {
            attributes[FeatureFlagAttributes.value] = value.description
        }
        if let source = details.source { attributes[FeatureFlagAttributes.providerName] = source }
        if let targetingKey = hook.context.targetingKey { attributes[FeatureFlagAttributes.contextID] = targetingKey }
        if let code = details.errorCode { attributes[FeatureFlagAttributes.errorType] = FeatureFlagAttributes.errorType(code) }
        if let message = details.errorMessage { attributes[FeatureFlagAttributes.errorMessage] = message }
        return attributes
    }
}
