/// An immutable value behind one reference. A datafile's flags and rules are read by every
/// decision and never change; kept in a `Shared`, handing one to a step of the decision retains
/// one object instead of copying (and retaining) each of its many fields.
///
/// Its members read as the value's: a function taking a `Shared<Experiment>` reads
/// `experiment.key` in place, where one taking an `Experiment` would copy it from its array.
///
/// ```swift
/// let rule = Shared(experiment)
/// rule.key // read in place
/// ```
@dynamicMemberLookup
final class Shared<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> Member {
        value[keyPath: member]
    }
}
