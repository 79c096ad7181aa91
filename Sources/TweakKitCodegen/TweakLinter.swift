public import TweakKit

/// Lifecycle checks of a tweaks file: expired tweaks and tweaks without an owner.
public enum TweakLinter {
    /// One problem of one tweak.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// What the problem is: expired on a day, or no `Owner`.
        public enum Kind: Sendable, Hashable {
            case expired(TweakDefinition.Day)
            case missingOwner
        }

        /// The tweaks file.
        public var file: String
        /// The tweak, with its place in the file.
        public var definition: TweakDefinition
        /// What the problem is.
        public var kind: Kind

        /// `file:line:column: feature.variable: problem`, as `tweak lint` prints it.
        public var description: String {
            let place = "\(file):\(definition.location): \(definition.tweak.feature).\(definition.tweak.variable)"
            switch kind {
            case .expired(let day):
                return "\(place): expired on \(day)" + (definition.owner.map { " (owner: \($0))" } ?? " (no owner)")
            case .missingOwner:
                return "\(place): has no Owner"
            }
        }
    }

    /// The findings for `definitions`, in file order: expired tweaks and tweaks without an owner.
    public static func lint(_ definitions: [TweakDefinition], file: String, today: TweakDefinition.Day) -> [Finding] {
        var findings: [Finding] = []
        for definition in definitions {
            if definition.isExpired(on: today), let expires = definition.expires {
                findings.append(Finding(file: file, definition: definition, kind: .expired(expires)))
            }
            if definition.owner?.isEmpty ?? true {
                findings.append(Finding(file: file, definition: definition, kind: .missingOwner))
            }
        }
        return findings
    }
}
