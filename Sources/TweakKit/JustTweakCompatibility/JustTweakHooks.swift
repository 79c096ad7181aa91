import Synchronization

/// The state JustTweak's API adds to a built-in provider: its log hook, decryption closure and
/// the last failure of a non-throwing call.
final class JustTweakHooks: Sendable {
    private struct State {
        var logClosure: LogClosure?
        var decryptionClosure: UncheckedDecryptionClosure?
        var lastError: (any Error)?
    }

    private let state = Mutex(State())
    /// Tells a manager to rebuild after the decryption closure changed.
    let notifier = TweakChangeNotifier()

    var logClosure: LogClosure? {
        get { state.withLock { $0.logClosure } }
        set { state.withLock { $0.logClosure = newValue } }
    }

    var decryptionClosure: ((Tweak) -> any TweakValue)? {
        get { state.withLock { $0.decryptionClosure }?.decrypt }
        set {
            let box = newValue.map(UncheckedDecryptionClosure.init)
            state.withLock { $0.decryptionClosure = box }
        }
    }

    var lastError: (any Error)? {
        get { state.withLock { $0.lastError } }
        set { state.withLock { $0.lastError = newValue } }
    }

    /// `tweak` with its encrypted value run through the decryption closure, when there is one.
    func decrypted(_ tweak: Tweak) -> Tweak {
        guard tweak.isEncrypted, let decrypt = decryptionClosure else { return tweak }
        var copy = tweak
        copy.value = decrypt(tweak)
        copy.isEncrypted = false
        return copy
    }
}

/// JustTweak's decryption closure, which is not `@Sendable`, kept where `Sendable` state is
/// needed. JustTweak called it on whichever thread looked a tweak up; so does TweakKit.
struct UncheckedDecryptionClosure: @unchecked Sendable {
    let decrypt: (Tweak) -> any TweakValue
}

/// A provider holding ``JustTweakHooks``: TweakKit's built-in providers.
protocol JustTweakHooksProvider: TweakProvider {
    var justTweakHooks: JustTweakHooks { get }
    /// Keeps `error` as the provider's `lastError`.
    func recordJustTweakFailure(_ error: any Error)
}

extension JustTweakHooksProvider {
    func recordJustTweakFailure(_ error: any Error) {
        justTweakHooks.lastError = error
    }
}

extension MutableTweakProvider {
    /// Records `error` as the provider's `lastError` (for built-in providers) and logs it.
    func reportJustTweakFailure(_ error: any Error, _ message: String) {
        (self as? any JustTweakHooksProvider)?.recordJustTweakFailure(error)
        logClosure?(message, .error)
    }
}
