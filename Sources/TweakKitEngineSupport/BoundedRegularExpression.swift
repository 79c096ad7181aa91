import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular expression in Foundation's (ICU's) syntax whose every search has a bounded cost: a
/// pattern that backtracks catastrophically (`(a+)+$` against thirty `a`s and a `!`) stops at its
/// budget with ``Outcome/tooComplex`` instead of running for seconds.
///
/// ```swift
/// let regex = try BoundedRegularExpression("^(a+)+$")
/// regex.firstMatch(in: "aaa")                                     // .match
/// regex.firstMatch(in: String(repeating: "a", count: 40) + "!")   // .tooComplex, within ~10 ms
/// ```
///
/// The budget is processor time of the searching thread, so a busy machine does not cut a search
/// short: ``baseBudget`` for any input, and ``budgetPerMillionUnits`` more per million UTF-16 code
/// units of input, so a simple pattern over a long text (linear work) always finishes.
package struct BoundedRegularExpression: Sendable {
    /// What a search found.
    package enum Outcome: Sendable, Hashable {
        case match, noMatch
        /// The search ran out of budget before an answer.
        case tooComplex
    }

    /// Processor time any search may take.
    package static let baseBudget: Duration = .milliseconds(10)
    /// More processor time per million UTF-16 code units of input: the engine reports progress at
    /// every start position, which alone costs about a tenth of a microsecond a unit.
    package static let budgetPerMillionUnits: Duration = .seconds(1)

    private let expression: NSRegularExpression

    /// Compiles `pattern`; throws when Foundation's engine refuses it.
    package init(_ pattern: String, caseInsensitive: Bool = false) throws {
        expression = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    /// Whether the expression matches anywhere in `text`, within the budget (`budget` overrides it).
    package func firstMatch(in text: String, budget: Duration? = nil) -> Outcome {
        search(text, budget: budget).outcome
    }

    /// The budget of a search of `text`: ``baseBudget`` and ``budgetPerMillionUnits``.
    package static func budget(for text: String) -> Duration {
        baseBudget + budgetPerMillionUnits * (Double(text.utf16.count) / 1_000_000)
    }

    /// ``firstMatch(in:budget:)``, and the processor time the search took: what a caller with a
    /// budget for many searches (one evaluation's) takes off it.
    package func search(_ text: String, budget: Duration? = nil) -> (outcome: Outcome, used: Duration) {
        let units = text.utf16.count
        let allowed = budget ?? Self.budget(for: text)
        let start = ThreadClock.now()
        let deadline = start + allowed.nanoseconds
        var outcome = Outcome.noMatch
        var calls = 0
        // `reportProgress`: the engine calls back periodically during a long search, and the
        // search stops when told to. The clock is read every eighth call (a call comes every few
        // microseconds in a linear scan, every few hundred in a backtracking one).
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: units)) { result, flags, stop in
            if result != nil {
                outcome = .match
                stop.pointee = true
            } else if flags.contains(.progress) {
                calls += 1
                if calls & 7 == 0, ThreadClock.now() > deadline {
                    outcome = .tooComplex
                    stop.pointee = true
                }
            }
        }
        return (outcome, .nanoseconds(max(0, ThreadClock.now() - start)))
    }
}

/// Processor time used by the calling thread, in nanoseconds.
private enum ThreadClock {
    static func now() -> Int64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
