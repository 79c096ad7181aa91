import Synchronization

/// Code that runs around every flag evaluation, as OpenFeature's hooks do: metrics, tracing,
/// audit logs and exposure reporting plug into a ``TweakManager`` the same way.
///
/// ```swift
/// struct AuditHook: TweakHook {
///     func after(_ hook: TweakHookContext, details: TweakHookDetails) throws {
///         print("\(hook.flagKey) = \(details.value?.description ?? "default") (\(details.reason.rawValue))")
///     }
/// }
/// manager.addHook(AuditHook())
/// ```
///
/// The stages, for each evaluation (a lookup such as `value(for:)`, `isFeatureEnabled(_:)` or
/// `tweakWith(feature:variable:)`):
/// 1. ``before(_:)`` of every hook, in the order they were added;
/// 2. the evaluation;
/// 3. ``after(_:details:)`` when the evaluation succeeded, or ``error(_:error:details:)`` when it
///    failed (no value, reason ``EvaluationReason/error``) or a `before` or `after` stage threw;
/// 4. ``finally(_:details:)``, always.
///
/// Stages 3 and 4 run in the reverse order of addition (the last hook added is the innermost), as
/// OpenFeature runs them. A hook that throws never changes the flag's value: the error is logged
/// through the manager's ``TweakManager/logger``, handed to the `error` stage, and the remaining
/// hooks still run. Hooks run on the looking-up thread with no lock held; keep them fast.
///
/// Every stage has an empty default, so a hook implements only what it needs.
public protocol TweakHook: Sendable {
    /// Runs before the evaluation.
    func before(_ hook: TweakHookContext) throws
    /// Runs after an evaluation that gave a value or a deliberate default (not an error).
    func after(_ hook: TweakHookContext, details: TweakHookDetails) throws
    /// Runs when the evaluation failed, or when a `before` or `after` stage threw; once per error.
    func error(_ hook: TweakHookContext, error: any Error, details: TweakHookDetails)
    /// Runs last, whatever happened.
    func finally(_ hook: TweakHookContext, details: TweakHookDetails)
    /// Whether the hook would do nothing with any evaluation, such as a metrics hook while no
    /// metrics backend is bootstrapped. While every hook a manager has is inert, lookups stay on
    /// the hook-free read path and cost what they cost with no hooks. Read when the hook is added
    /// (``TweakManager/addHook(_:)`` or ``TweakManager/hooks``); the default is `false`.
    ///
    /// ```swift
    /// struct SamplingHook: TweakHook {
    ///     var rate: Double
    ///     var isInert: Bool { rate == 0 }
    /// }
    /// ```
    var isInert: Bool { get }
}

extension TweakHook {
    public func before(_ hook: TweakHookContext) throws {}
    public func after(_ hook: TweakHookContext, details: TweakHookDetails) throws {}
    public func error(_ hook: TweakHookContext, error: any Error, details: TweakHookDetails) {}
    public func finally(_ hook: TweakHookContext, details: TweakHookDetails) {}
    public var isInert: Bool { false }
}

/// What a ``TweakHook`` knows before an evaluation: which flag, and for whom.
public struct TweakHookContext: Sendable, Hashable {
    /// The tweak evaluated.
    public var id: TweakID
    /// The context the evaluation uses: the manager's, the task's and the lookup's, merged.
    public var context: EvaluationContext

    /// The flag key as OpenTelemetry's `feature_flag.key` reports it: `feature.variable`.
    public var flagKey: String { id.description }

    /// The context of an evaluation of `id` with `context`.
    public init(id: TweakID, context: EvaluationContext) {
        self.id = id
        self.context = context
    }
}

/// What an evaluation gave, as ``TweakHook`` stages after it see it.
///
/// The value is what the stack answered, before conversion to a typed key's type; `nil` when the
/// caller's default applies.
public struct TweakHookDetails: Sendable, Hashable {
    /// The tweak evaluated.
    public var id: TweakID
    /// The value the stack gave; `nil` when the caller's default applies.
    public var value: TweakContent?
    /// The variant a contextual provider chose (`"on"`, `"blue"`); `nil` for static values.
    public var variant: String?
    /// ``EvaluationReason/static`` for a value from a provider that does not evaluate per lookup.
    public var reason: EvaluationReason
    /// Set when the evaluation failed (``EvaluationErrorCode/flagNotFound`` when no provider has the tweak).
    public var errorCode: EvaluationErrorCode?
    /// What went wrong, in words, when the evaluation failed.
    public var errorMessage: String?
    /// The provider that answered, when one did.
    public var source: String?
    /// What the provider tells about the decision (an Optimizely rule key, say).
    public var flagMetadata: [String: TweakContent]

    /// The flag key as OpenTelemetry's `feature_flag.key` reports it: `feature.variable`.
    public var flagKey: String { id.description }

    /// Details of one evaluation, as a hook sees them (for testing a hook, say).
    public init(
        id: TweakID, value: TweakContent?, variant: String? = nil, reason: EvaluationReason,
        errorCode: EvaluationErrorCode? = nil, errorMessage: String? = nil, source: String? = nil,
        flagMetadata: [String: TweakContent] = [:]
    ) {
        self.id = id
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.source = source
        self.flagMetadata = flagMetadata
    }
}

/// The error the `error` stage of a ``TweakHook`` receives for a failed evaluation.
public struct TweakEvaluationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The tweak whose evaluation failed.
    public var id: TweakID
    /// Why, in OpenFeature's error codes.
    public var code: EvaluationErrorCode
    /// Why, in words.
    public var message: String?

    /// A failed evaluation of `id`.
    public init(id: TweakID, code: EvaluationErrorCode, message: String? = nil) {
        self.id = id
        self.code = code
        self.message = message
    }

    /// `feature.variable: CODE: message`.
    public var description: String { "\(id): \(code.rawValue)\(message.map { ": \($0)" } ?? "")" }
}

/// The hooks of one manager: a lock for changes, and a flag lookups read without it.
final class TweakHookRegistry: Sendable {
    private let hooks = Mutex<[any TweakHook]>([])
    /// Whether any hook that is not inert (``TweakHook/isInert``) is registered: one relaxed load
    /// on the read path.
    private let active = Atomic<Bool>(false)

    @inline(__always)
    var isActive: Bool { active.load(ordering: .relaxed) }

    // Each hook's `isInert` (the hook's own code) is read before the lock is taken.

    var all: [any TweakHook] {
        get { hooks.withLock { $0 } }
        set {
            let isActive = newValue.contains { !$0.isInert }
            hooks.withLock {
                $0 = newValue
                active.store(isActive, ordering: .relaxed)
            }
        }
    }

    func append(_ hook: any TweakHook) {
        let isInert = hook.isInert
        hooks.withLock {
            $0.append(hook)
            if !isInert { active.store(true, ordering: .relaxed) }
        }
    }

    func removeAll() {
        all = []
    }
}
