public import TweakKitEngineSupport

/// Who a feature is evaluated for, in GrowthBook's SDK vocabulary.
///
/// ```swift
/// var user = GrowthBookUserContext(attributes: ["id": "user-1", "country": "NL"])
/// user.forcedVariations = ["checkout-test": 1]     // QA: this user sees variation 1
/// user.stickyBucketAssignmentDocs = [:]            // sticky bucketing on, nothing stored yet
/// ```
public struct GrowthBookUserContext: Sendable, Hashable, CustomReflectable {
    /// The attributes conditions and hashing read (an object).
    public var attributes: GrowthBookValue {
        get { storage.fields.attributes }
        set { storage.fields.attributes = newValue }
    }
    /// Experiment key → variation index, forced before any bucketing.
    public var forcedVariations: [String: Int] {
        get { storage.fields.forcedVariations }
        set { storage.fields.forcedVariations = newValue }
    }
    /// No experiment runs unless forced.
    public var qaMode: Bool {
        get { storage.fields.qaMode }
        set { storage.fields.qaMode = newValue }
    }
    /// `false` turns every experiment off.
    public var enabled: Bool {
        get { storage.fields.enabled }
        set { storage.fields.enabled = newValue }
    }
    /// The page URL, for `?experiment=1` query-string overrides and `url` targeting.
    public var url: String {
        get { storage.fields.url }
        set { storage.fields.url = newValue }
    }
    /// Group memberships for experiments' `groups`.
    public var groups: [String: Bool] {
        get { storage.fields.groups }
        set { storage.fields.groups = newValue }
    }
    /// Sticky bucket documents by `"<attribute>||<value>"`; `nil` turns sticky bucketing off.
    /// Evaluations add the assignments they make.
    public var stickyBucketAssignmentDocs: [String: GrowthBookStickyAssignmentsDocument]? {
        get { storage.fields.stickyBucketAssignmentDocs }
        set { storage.fields.stickyBucketAssignmentDocs = newValue }
    }

    /// The fields, behind one reference: each evaluator holds the user, and creating one is then
    /// one retain, not one per field. Changing a field copies them first when another user
    /// context (or an evaluator) shares them.
    private var storage: CopyOnWrite<Fields>

    private struct Fields: Sendable, Hashable {
        var attributes: GrowthBookValue
        var forcedVariations: [String: Int] = [:]
        var qaMode = false
        var enabled = true
        var url = ""
        var groups: [String: Bool] = [:]
        var stickyBucketAssignmentDocs: [String: GrowthBookStickyAssignmentsDocument]?
    }

    /// Equal when every field is.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The fields, as `print`, `dump` and test failures show them (not the storage behind them).
    public var customMirror: Mirror {
        Mirror(reflecting: storage.fields)
    }

    /// A user with these attributes, no forced variations, sticky bucketing off.
    public init(attributes: GrowthBookValue = .object([])) {
        storage = CopyOnWrite(Fields(attributes: attributes))
    }

    /// Whether sticky bucketing is on (a store or a set of documents was given).
    var stickyBucketing: Bool { stickyBucketAssignmentDocs != nil }
}

/// The assignments stored for one attribute value: experiment key `"<key>__<bucketVersion>"` →
/// variation key.
public struct GrowthBookStickyAssignmentsDocument: Sendable, Hashable {
    /// The hashed attribute (`id`, `deviceId`).
    public var attributeName: String
    /// The attribute's value.
    public var attributeValue: String
    /// `"<experiment key>__<bucket version>"` → variation key.
    public var assignments: [String: String]

    /// A document for one attribute value.
    public init(attributeName: String, attributeValue: String, assignments: [String: String]) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.assignments = assignments
    }

    /// The document's key in a store: `"<attributeName>||<attributeValue>"`.
    public var key: String { "\(attributeName)||\(attributeValue)" }

    /// The document as GrowthBook's SDKs store it (assignments sorted by key).
    public var jsonValue: GrowthBookValue {
        .object([
            GrowthBookMember(key: "attributeName", value: .string(attributeName)),
            GrowthBookMember(key: "attributeValue", value: .string(attributeValue)),
            GrowthBookMember(key: "assignments", value: .object(assignments.keys.sorted().map {
                GrowthBookMember(key: $0, value: .string(assignments[$0] ?? ""))
            })),
        ])
    }

    /// Reads a stored document; `nil` when it does not have the document's shape.
    public init?(json: GrowthBookValue) {
        guard let name = json["attributeName"]?.string, let value = json["attributeValue"]?.string else { return nil }
        var assignments: [String: String] = [:]
        for member in json["assignments"]?.members ?? [] {
            if let variation = member.value.string { assignments[member.key] = variation }
        }
        self.init(attributeName: name, attributeValue: value, assignments: assignments)
    }
}
