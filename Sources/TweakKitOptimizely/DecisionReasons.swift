import TweakKit

/// The reasons of a decision, in the SDKs' wording, put into words only when
/// ``OptimizelyDecision/reasons`` is read: a decision builds no strings.
///
/// - A decision without forced decisions records nothing: it is a function of the datafile's
///   rules, the flag and the user, so its steps are taken again, by deciding once more, when
///   its reasons are read.
/// - A decision with forced decisions (which can change later) records its steps as they are
///   taken. Each step keeps its parts (the rule, the variation: pointers into the datafile; the
///   user id once for all), so steps are plain values: recording one retains nothing, and
///   dropping the log frees one buffer.
/// - A lookup through the manager, whose reasons nobody reads, records nothing at all.
///
/// Two logs are equal when their messages are.
struct DecisionReasons: Sendable, Hashable {
    private enum Log: Sendable {
        /// Records nothing.
        case none
        /// Records steps as they are taken.
        case recording(Recording)
        /// Takes the steps of deciding `flag` (one of `rules`' flags) for `user`, without forced
        /// decisions, when they are read.
        case replay(rules: OptimizelyDatafile.Rules, flag: DatafilePointer<OptimizelyDatafile.Flag>, user: OptimizelyUser)
        /// Messages set in words.
        case words([String])
    }

    /// Recorded steps. Appended to only while its decision is made, by the one log that holds
    /// it; read-only once the decision is returned.
    private final class Recording: @unchecked Sendable {
        /// What the steps point into.
        let rules: OptimizelyDatafile.Rules
        /// The user the messages name.
        let userID: String
        var steps: [DecisionStep] = []
        /// Words the steps name by index: a variable's conversion problem, a flag key the
        /// datafile lacks.
        var texts: [String] = []

        init(rules: OptimizelyDatafile.Rules, userID: String) {
            self.rules = rules
            self.userID = userID
            // Room for a typical decision's steps (an experiment and a three-rule rollout
            // record about a dozen): one allocation instead of the array growing four times.
            steps.reserveCapacity(16)
        }

        func append(_ step: DecisionStep) {
            steps.append(step)
        }

        func append(text: String, _ step: (Int) -> DecisionStep) {
            texts.append(text)
            steps.append(step(texts.count - 1))
        }
    }

    private let log: Log

    /// A log that records nothing.
    static let none = DecisionReasons(log: .none)

    private init(log: Log) {
        self.log = log
    }

    /// A log that records the steps of `userID`'s decision, pointing into `rules`.
    init(recordingInto rules: OptimizelyDatafile.Rules, userID: String) {
        log = .recording(Recording(rules: rules, userID: userID))
    }

    /// The log of deciding `flag` (one of `rules`' flags) for `user` without forced decisions,
    /// whose steps are taken when read.
    init(replaying flag: Shared<OptimizelyDatafile.Flag>, user: OptimizelyUser, rules: OptimizelyDatafile.Rules) {
        log = .replay(rules: rules, flag: DatafilePointer(flag), user: user)
    }

    /// A log of messages already in words (what a caller sets ``OptimizelyDecision/reasons`` to).
    init(messages: [String]) {
        log = .words(messages)
    }

    mutating func append(_ step: @autoclosure () -> DecisionStep) {
        if case .recording(let recording) = log { recording.append(step()) }
    }

    /// Records a message in words (a variable that did not convert).
    mutating func append(message: @autoclosure () -> String) {
        if case .recording(let recording) = log { recording.append(text: message(), DecisionStep.text) }
    }

    /// Records that no flag is called `flagKey`.
    mutating func appendFlagNotFound(_ flagKey: String) {
        if case .recording(let recording) = log { recording.append(text: flagKey, DecisionStep.flagNotFound) }
    }

    /// The steps in words. (The log holds the rules its steps point into.)
    var messages: [String] {
        switch log {
        case .none:
            return []
        case .recording(let recording):
            return recording.steps.map { $0.message(userID: recording.userID, texts: recording.texts) }
        case .replay(let rules, let flag, let user):
            var again = DecisionReasons(recordingInto: rules, userID: user.id)
            _ = rules.decide(flag.object, user: user, forced: nil, reasons: &again)
            return again.messages
        case .words(let messages):
            return messages
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.messages == rhs.messages
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
    }
}

/// A delivery rule as the reasons name it: its position, or "Everyone Else" for the last one.
enum DeliveryRuleName: Sendable, CustomStringConvertible {
    case number(Int)
    case everyoneElse

    var description: String {
        switch self {
        case .number(let number): String(number)
        case .everyoneElse: "Everyone Else"
        }
    }
}
