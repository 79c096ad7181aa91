/// An immutable value behind one reference. A decision engine's flags and rules are read by
/// every decision; kept in a `Shared`, handing one to a step of the decision retains one object
/// instead of copying (and retaining) each of its many fields. The value never changes: whoever
/// owns the box replaces it with a new one.
///
/// Read its members through ``value`` (`rule.value.key`): a field of an immutable stored
/// property is read in place, where binding the value (`let experiment = rule.value`) or
/// passing it on may copy it. (A key-path member lookup is not used: across modules it is not
/// compiled away and cost more than the copies.)
///
/// ```swift
/// let rule = Shared(experiment)
/// rule.value.key // read in place
/// ```
package final class Shared<Value: Sendable>: Sendable {
    package let value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
