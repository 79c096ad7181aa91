import TweakKit

/// The reasons of a decision, in the SDKs' wording, put into words only when
/// ``OptimizelyDecision/reasons`` is read: a decision builds no strings.
///
/// - A decision without forced decisions records nothing: it is a function of the datafile's
///   rules, the flag and the user, so its steps are taken again, by deciding once more, when
///   its reasons are read.
/// - A decision with forced decisions (which can change later) records its steps as they are
///   taken. Each step keeps its parts (the rule, the variation: pointers into the datafile; the
///   user id once for all), so steps are plain values: recording one retains nothing.
/// - A lookup through the manager, whose reasons nobody reads, records nothing at all.
///
/// Either way the log holds the datafile's ``OptimizelyDatafile/Rules`` (and, to decide again,
/// the user). Two logs are equal when their messages are; reading them, comparing two logs
/// and hashing one each decide again (two logs of the same rules, flag and user are equal
/// without it).
struct DecisionReasons: Sendable, Hashable {
    private enum Log: Sendable {
        /// Records nothing.
        case none
        /// Records steps as they are taken, while its decision is made (see ``finished()``).
        case recording(Recording)
        /// The steps recorded while the decision was made.
        case recorded(rules: OptimizelyDatafile.Rules, userID: String, steps: [DecisionStep], texts: [String])
        /// Takes the steps of deciding `flag` (one of `rules`' flags) for `user`, without forced
        /// decisions, when they are read.
        case replay(rules: OptimizelyDatafile.Rules, flag: DatafilePointer<OptimizelyDatafile.Flag>, user: OptimizelyUser)
        /// Messages set in words.
        case words([String])
    }

    /// Steps being recorded. Only the decision being made appends to it, on its own thread,
    /// before ``DecisionReasons/finished()`` copies the steps out: no decision returned holds one.
    /// Unchecked rather than behind a lock, which every step would take (`Optimizely.Decide` in
    /// `Benchmarks/run`).
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

    /// The log to return with the decision: a recording's steps copied out of it, so that the
    /// log returned holds nothing that changes.
    func finished() -> DecisionReasons {
        guard case .recording(let recording) = log else { return self }
        return DecisionReasons(log: .recorded(rules: recording.rules, userID: recording.userID, steps: recording.steps, texts: recording.texts))
    }

    /// The steps in words. (The log holds the rules its steps point into.)
    var messages: [String] {
        switch log {
        case .none:
            return []
        case .recording(let recording):
            return recording.steps.map { $0.message(userID: recording.userID, texts: recording.texts) }
        case .recorded(_, let userID, let steps, let texts):
            return steps.map { $0.message(userID: userID, texts: texts) }
        case .replay(let rules, let flag, let user):
            var again = DecisionReasons(recordingInto: rules, userID: user.id)
            _ = rules.decide(flag.object, user: user, forced: nil, reasons: &again)
            return again.messages
        case .words(let messages):
            return messages
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        // The same rules, flag and user take the same steps: equal without deciding again.
        if case .replay(let rules, let flag, let user) = lhs.log, case .replay(let otherRules, let otherFlag, let otherUser) = rhs.log,
           rules === otherRules, flag.object === otherFlag.object, user == otherUser {
            return true
        }
        return lhs.messages == rhs.messages
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
