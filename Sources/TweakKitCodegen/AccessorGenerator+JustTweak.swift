import TweakKit

/// The accessor for ``GeneratorConfiguration/API/justTweak``: the shape JustTweak's own generator
/// wrote (`init(with:)`, one property per tweak reading `tweakWith(feature:variable:)` and writing
/// `set(_:feature:variable:)`), with the tweaks file's value as each property's default where
/// JustTweak's used the type's zero.
extension AccessorGenerator {
    func justTweakAccessorFile(_ entries: [Entry]) -> String {
        let name = configuration.accessorName
        var lines = [header(importing: true)]
        lines.append("""
            /// Typed access to the tweaks of \(sourceName), through JustTweak's `TweakManager`.
            ///
            /// ```swift
            /// let tweaks = \(name)(with: tweakManager)
            /// let value = tweaks.\(SwiftIdentifier.bareName(entries[0].property))
            /// ```
            \(access) final class \(name): Sendable {
                /// The manager every property reads from and writes to.
                \(access) let tweakManager: TweakManager

                \(access) init(with tweakManager: TweakManager) {
                    self.tweakManager = tweakManager
                }

                /// The same as ``init(with:)``.
                \(access) convenience init(tweakManager: TweakManager) {
                    self.init(with: tweakManager)
                }
            """)
        var group: String??
        for entry in entries {
            let entryGroup = entry.definition.tweak.group
            if group == nil || group! != entryGroup {
                group = .some(entryGroup)
                lines.append("\n    // MARK: - \(entryGroup ?? "Other")")
            }
            let address = "feature: Features.\(entry.featureConstant), variable: Variables.\(entry.property)"
            lines.append("")
            lines.append(contentsOf: docComment(entry.definition, indent: "    "))
            lines.append(contentsOf: deprecation(entry.definition, indent: "    "))
            lines.append("""
                    \(access) var \(entry.property): \(entry.swiftType) {
                        get { (try? tweakManager.tweakWith(\(address)))?.\(Self.justTweakReader(entry.swiftType)) ?? \(entry.defaultLiteral) }
                        set { tweakManager.set(newValue, \(address)) }
                    }
                """)
        }
        lines.append("}\n")
        return lines.joined(separator: "\n")
    }

    /// The `Tweak` accessor of JustTweak's API that reads a value of `swiftType`.
    static func justTweakReader(_ swiftType: String) -> String {
        switch swiftType {
        case "Bool": "boolValue"
        case "Int": "intValue"
        case "Float": "floatValue"
        case "Double": "doubleValue"
        default: "stringValue"
        }
    }
}
