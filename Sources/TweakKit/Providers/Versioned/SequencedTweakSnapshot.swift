/// Every value a ``SequencedTweakProvider`` serves, each with its version, as of one sequence:
/// what a replica sends a follower to start from before it follows the change stream.
///
/// Flag definitions are among the entries, under the feature their store keeps them in (TweakKitStore's
/// `$flagd`), as they are among the provider's changes.
///
/// ```swift
/// func describe(_ provider: any SequencedTweakProvider) {
///     if let snapshot = provider.sequencedSnapshot() {
///         print("every change up to \(snapshot.sequence):", snapshot.entries.count, "values")
///     }
/// }
/// ```
public struct SequencedTweakSnapshot: Sendable, Hashable {
    /// The reserved feature under which a store keeps flag definitions, one variable a flag key
    /// (TweakKitStore's `StoreTweakProvider.flagFeature`).
    public static let flagDefinitionFeature = "$flagd"

    /// One stored value and its version.
    public struct Entry: Sendable, Hashable {
        /// The tweak's feature.
        public var feature: String
        /// The tweak's variable.
        public var variable: String
        /// The stored value.
        public var value: TweakContent
        /// The value's version: 1 for the first write, one more for each after it.
        public var version: Int64

        /// Creates an entry.
        ///
        /// ```swift
        /// let entry = SequencedTweakSnapshot.Entry(feature: "checkout", variable: "enabled", value: true, version: 3)
        /// ```
        public init(feature: String, variable: String, value: TweakContent, version: Int64) {
            self.feature = feature
            self.variable = variable
            self.value = value
            self.version = version
        }

        /// The tweak's id.
        public var id: TweakID { TweakID(feature: feature, variable: variable) }
    }

    /// The sequence of the last change the entries include.
    public var sequence: Int64
    /// Every stored value, sorted by id.
    public var entries: [Entry]

    /// Creates a snapshot.
    ///
    /// ```swift
    /// let snapshot = SequencedTweakSnapshot(sequence: 42, entries: [
    ///     .init(feature: "checkout", variable: "enabled", value: true, version: 3),
    /// ])
    /// ```
    public init(sequence: Int64, entries: [Entry]) {
        self.sequence = sequence
        self.entries = entries
    }
}
