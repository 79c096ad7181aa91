import Synchronization
import TweakKit

/// What the hooks saw, in order, across every hook sharing the log.
final class HookLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let details = Mutex<[TweakHookDetails]>([])
    private let errors = Mutex<[String]>([])
    private let contexts = Mutex<[TweakHookContext]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    func record(_ detail: TweakHookDetails) { details.withLock { $0.append(detail) } }
    func record(error: any Error) { errors.withLock { $0.append("\(error)") } }
    func record(context: TweakHookContext) { contexts.withLock { $0.append(context) } }

    var all: [String] { entries.withLock { $0 } }
    var allDetails: [TweakHookDetails] { details.withLock { $0 } }
    var allErrors: [String] { errors.withLock { $0 } }
    var allContexts: [TweakHookContext] { contexts.withLock { $0 } }
}

struct HookFailure: Error, CustomStringConvertible {
    var description: String
}

/// A hook that writes each stage it runs to a log, and throws at the stages it is told to.
struct RecordingHook: TweakHook {
    enum Stage: String, Sendable, CaseIterable { case before, after }

    var name: String
    var log: HookLog
    var throwsAt: Set<Stage> = []
    var isInert = false

    func before(_ hook: TweakHookContext) throws {
        log.append("\(name).before")
        log.record(context: hook)
        if throwsAt.contains(.before) { throw HookFailure(description: "\(name) failed before") }
    }

    func after(_ hook: TweakHookContext, details: TweakHookDetails) throws {
        log.append("\(name).after")
        if throwsAt.contains(.after) { throw HookFailure(description: "\(name) failed after") }
    }

    func error(_ hook: TweakHookContext, error: any Error, details: TweakHookDetails) {
        log.append("\(name).error")
        log.record(error: error)
    }

    func finally(_ hook: TweakHookContext, details: TweakHookDetails) {
        log.append("\(name).finally")
        log.record(details)
    }
}
