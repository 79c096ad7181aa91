import TweakKitEngineSupport

extension GrowthBookEvaluator {
    func stickyExperimentKey(_ key: String, _ bucketVersion: Int?) -> String {
        "\(key)__\(bucketVersion ?? 0)"
    }

    /// The stored variation index for the experiment (-1 when none), and whether an assignment
    /// from a version below `minBucketVersion` blocks the user.
    func stickyBucketVariation(_ experiment: GrowthBookExperiment) -> (variation: Int, versionIsBlocked: Bool) {
        let assignments = stickyAssignments(experiment.hashAttribute, fallback: experiment.fallbackAttribute)
        let minimum = experiment.minBucketVersion ?? 0
        if minimum > 0, (0..<minimum).contains(where: { assignments[stickyExperimentKey(experiment.key, $0)] != nil }) {
            return (-1, true)
        }
        guard let variationKey = assignments[stickyExperimentKey(experiment.key, experiment.bucketVersion)], !variationKey.isEmpty else {
            return (-1, false)
        }
        let index = (experiment.meta ?? []).firstIndex { $0["key"]?.string == variationKey } ?? -1
        return (index, false)
    }

    /// The assignments stored for the hash attribute's value, over those for the fallback attribute's.
    private func stickyAssignments(_ attribute: String?, fallback: String?) -> [String: String] {
        guard let documents = user.stickyBucketAssignmentDocs else { return [:] }
        let (name, value) = hashValue(attribute)
        var merged = documents["\(name)||\(value)"]?.assignments ?? [:]
        if let fallback {
            let (_, fallbackValue) = hashValue(fallback)
            for (key, variation) in documents["\(fallback)||\(fallbackValue)"]?.assignments ?? [:] where merged[key] == nil {
                merged[key] = variation
            }
        }
        return merged
    }

    mutating func saveStickyAssignment(attribute: String, value: String, experimentKey: String, variationKey: String) {
        let key = "\(attribute)||\(value)"
        var document = user.stickyBucketAssignmentDocs?[key]
            ?? GrowthBookStickyAssignmentsDocument(attributeName: attribute, attributeValue: value, assignments: [:])
        guard document.assignments[experimentKey] != variationKey else { return }
        document.assignments[experimentKey] = variationKey
        setStickyDocument(document)
    }
}
