import Configuration
import Foundation
import TweakKit

/// Converts between TweakKit's values and swift-configuration's, as its JSON files do.
enum TweakContentReader {
    /// A tweak's value as the enum: the one place this target reads a tweak's `content`.
    static func content(of tweak: Tweak) -> TweakContent {
        tweak.content
    }

    /// `content` as `type`, or `nil` when it does not convert.
    static func configContent(_ content: TweakContent, as type: ConfigType) -> ConfigContent? {
        switch type {
        case .string: content.stringIfString.map(ConfigContent.string)
        case .int: int(content).map(ConfigContent.int)
        case .double: double(content).map(ConfigContent.double)
        case .bool: bool(content).map(ConfigContent.bool)
        case .bytes: content.stringIfString.flatMap { Data(base64Encoded: $0) }.map { .bytes(Array($0)) }
        case .stringArray: array(content, \.stringIfString).map(ConfigContent.stringArray)
        case .intArray: array(content, int).map(ConfigContent.intArray)
        case .doubleArray: array(content, double).map(ConfigContent.doubleArray)
        case .boolArray: array(content, bool).map(ConfigContent.boolArray)
        case .byteChunkArray:
            array(content) { $0.stringIfString.flatMap { Data(base64Encoded: $0) }.map(Array.init) }.map(ConfigContent.byteChunkArray)
        }
    }

    static func int(_ content: TweakContent) -> Int? {
        switch content {
        case .int(let int): int
        case .double(let double): Int(exactly: double)
        case .float(let float): Int(exactly: float)
        case .bool(let bool): bool ? 1 : 0
        default: nil
        }
    }

    static func double(_ content: TweakContent) -> Double? {
        switch content {
        case .int(let int): Double(exactly: int)
        case .double(let double): double
        case .float(let float): Double(float.description) ?? Double(float)
        case .bool(let bool): bool ? 1 : 0
        default: nil
        }
    }

    static func bool(_ content: TweakContent) -> Bool? {
        switch content {
        case .bool(let bool): bool
        case .int(let int): int != 0
        case .double(let double): double != 0
        case .float(let float): float != 0
        default: nil
        }
    }

    private static func array<Element>(_ content: TweakContent, _ convert: (TweakContent) -> Element?) -> [Element]? {
        guard case .array(let elements) = content else { return nil }
        var converted: [Element] = []
        for element in elements {
            guard let value = convert(element) else { return nil }
            converted.append(value)
        }
        return converted
    }

    /// A configuration value as a tweak's.
    static func tweakContent(_ content: ConfigContent) -> TweakContent {
        switch content {
        case .string(let text): .string(text)
        case .int(let int): .int(int)
        case .double(let double): .double(double)
        case .bool(let bool): .bool(bool)
        case .bytes(let bytes): .string(Data(bytes).base64EncodedString())
        case .stringArray(let values): .array(values.map(TweakContent.string))
        case .intArray(let values): .array(values.map(TweakContent.int))
        case .doubleArray(let values): .array(values.map(TweakContent.double))
        case .boolArray(let values): .array(values.map(TweakContent.bool))
        case .byteChunkArray(let chunks): .array(chunks.map { .string(Data($0).base64EncodedString()) })
        }
    }
}

extension TweakContent {
    var stringIfString: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
