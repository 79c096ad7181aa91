public import Foundation
public import TweakKit

/// Firebase Remote Config server templates as a ``TweakDocumentFormat``, for
/// ``DocumentTweakProvider`` (a bundled or downloaded file) and `RemoteTweakProvider` (the REST
/// endpoint, see ``FirebaseServerTemplate``).
///
/// ```swift
/// let firebase = try DocumentTweakProvider(contentsOf: templateURL, format: .firebase(mapping: .feature("remote")))
/// ```
public struct FirebaseTemplateFormat: TweakDocumentFormat {
    public let mapping: FirebaseParameterMapping

    public var name: String { "Firebase Remote Config template" }

    public init(mapping: FirebaseParameterMapping = .doubleUnderscore) {
        self.mapping = mapping
    }

    public func document(from data: Data, source: String) throws -> any TweakDocument {
        try FirebaseTemplateDocument(template: FirebaseTemplate(data: data, source: source), mapping: mapping, source: source)
    }
}

extension TweakDocumentFormat where Self == FirebaseTemplateFormat {
    /// Firebase Remote Config server templates, parameters named by `mapping`.
    public static func firebase(mapping: FirebaseParameterMapping = .doubleUnderscore) -> FirebaseTemplateFormat {
        FirebaseTemplateFormat(mapping: mapping)
    }
}
