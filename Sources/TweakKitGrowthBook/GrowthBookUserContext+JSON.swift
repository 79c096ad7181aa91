public import TweakKitEngineSupport

extension GrowthBookUserContext {
    /// Reads a context written with the names GrowthBook's SDKs give its options: `attributes`,
    /// `forcedVariations`, `qaMode`, `enabled`, `url`, `groups` and `stickyBucketAssignmentDocs`
    /// (an object of documents by key; its presence turns sticky bucketing on). Other members
    /// (`features`, `savedGroups`) are the payload's and are ignored here.
    ///
    /// ```swift
    /// let user = try GrowthBookUserContext(json: try GrowthBookValue(jsonText: #"{"attributes": {"id": "1"}, "qaMode": true}"#))
    /// ```
    public init(json: GrowthBookValue, source: String = "context") throws(GrowthBookPayloadError) {
        let reader = GrowthBookReader(source: source)
        _ = try reader.object(json, "")
        self.init(attributes: json["attributes"].flatMap { $0.isNull ? nil : $0 } ?? .object([]))
        _ = try reader.object(attributes, "attributes")
        if let forced = json["forcedVariations"], !forced.isNull {
            for member in try reader.object(forced, "forcedVariations") {
                guard let index = member.value.number, index == index.rounded(), abs(index) < 1e9 else {
                    throw reader.fail("forcedVariations.\(member.key)", "expected a variation index, found \(member.value.jsonText)")
                }
                forcedVariations[member.key] = Int(index)
            }
        }
        qaMode = try reader.bool(json, "qaMode", "") ?? false
        enabled = try reader.bool(json, "enabled", "") ?? true
        url = try reader.string(json, "url", "") ?? ""
        if let groupsValue = json["groups"], !groupsValue.isNull {
            for member in try reader.object(groupsValue, "groups") { groups[member.key] = member.value.isTruthy }
        }
        if let documents = json["stickyBucketAssignmentDocs"], !documents.isNull {
            var stored: [String: GrowthBookStickyAssignmentsDocument] = [:]
            for member in try reader.object(documents, "stickyBucketAssignmentDocs") {
                guard let document = GrowthBookStickyAssignmentsDocument(json: member.value) else {
                    throw reader.fail("stickyBucketAssignmentDocs.\(member.key)", "expected {attributeName, attributeValue, assignments}")
                }
                stored[member.key] = document
            }
            stickyBucketAssignmentDocs = stored
        }
    }
}
