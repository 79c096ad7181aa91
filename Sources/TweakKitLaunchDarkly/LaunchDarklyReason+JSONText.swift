import TweakKit

extension LaunchDarklyReason {
    /// ``json``'s compact text, written directly: the provider puts it in every decision's flag
    /// metadata, and building the JSON value first cost four allocations per decision
    /// (`LaunchDarkly.ManagerFeatureEnabled`).
    var jsonText: String {
        var text = ""
        text.reserveCapacity(48)
        text += #"{"kind":""#
        text += kind.rawValue
        text += "\""
        if let ruleIndex {
            text += #","ruleIndex":"#
            text += String(ruleIndex)
        }
        if let ruleID {
            text += #","ruleId":"#
            JSONWriter.writeString(ruleID, into: &text)
        }
        if let prerequisiteKey {
            text += #","prerequisiteKey":"#
            JSONWriter.writeString(prerequisiteKey, into: &text)
        }
        if let errorKind {
            text += #","errorKind":""#
            text += errorKind.rawValue
            text += "\""
        }
        if inExperiment { text += #","inExperiment":true"# }
        if let bigSegmentsStatus {
            text += #","bigSegmentsStatus":"#
            JSONWriter.writeString(bigSegmentsStatus, into: &text)
        }
        text += "}"
        return text
    }
}
