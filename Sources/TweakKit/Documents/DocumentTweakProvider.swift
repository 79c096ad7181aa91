public import Foundation
import Synchronization

/// Serves a ``TweakDocument`` read from a file or from bytes: an Optimizely datafile, a Firebase
/// Remote Config template, flagd definitions or a tweaks file, bundled with the app or written by
/// another process.
///
/// ```swift
/// let optimizely = try DocumentTweakProvider(contentsOf: datafileURL, format: .optimizely())
/// let manager = TweakManager(tweakProviders: [overrides, optimizely, defaults])
/// try optimizely.reload()              // after the file changed; a bad file keeps the good document
/// ```
///
/// Lookups of tweaks the document evaluates (``TweakDocument/evaluatedTweakIDs``) are evaluated per
/// lookup with the manager's ``EvaluationContext``; a document that has no answer for one leaves it
/// to the providers below.
public final class DocumentTweakProvider: DocumentBackedTweakProvider {
    /// The source shown on the provider's tweaks: the file's name, unless another was given.
    public let name: String
    /// The format that parses the file or bytes.
    public let format: any TweakDocumentFormat
    /// The file the document is read from, if it came from one.
    public let fileURL: URL?
    private let current: Mutex<any TweakDocument>
    /// Tells observers when a new document is served.
    public let changeNotifier = TweakChangeNotifier()

    /// Reads and parses the file; an unreadable or invalid file is an error that says where and what.
    public convenience init(contentsOf url: URL, format: any TweakDocumentFormat, name: String? = nil) throws {
        let document = try format.document(from: TweakFileError.contents(of: url), source: url.path)
        self.init(document: document, format: format, name: name ?? url.lastPathComponent, fileURL: url)
    }

    /// Parses `data`; `name` is the source shown on its tweaks and in errors.
    public convenience init(data: Data, format: any TweakDocumentFormat, name: String) throws {
        try self.init(document: format.document(from: data, source: name), format: format, name: name)
    }

    /// Serves a document already parsed; `format` parses later updates.
    public init(document: any TweakDocument, format: any TweakDocumentFormat, name: String, fileURL: URL? = nil) {
        self.name = name
        self.format = format
        self.fileURL = fileURL
        self.current = Mutex(document)
    }

    /// The document in service.
    public var document: any TweakDocument { current.withLock { $0 } }

    /// Parses `data` and serves it. An invalid document is refused with the error, and the
    /// document in service stays.
    public func update(data: Data) throws {
        let document = try format.document(from: data, source: fileURL?.path ?? name)
        update(document)
    }

    /// Serves `document` and tells the manager.
    public func update(_ document: any TweakDocument) {
        current.withLock { $0 = document }
        changeNotifier.post(.reloaded, from: self)
    }

    /// Reads the file again (for providers made with ``init(contentsOf:format:name:)``); an
    /// unreadable or invalid file is refused with the error, and the document in service stays.
    public func reload() throws {
        guard let fileURL else { return }
        try update(data: TweakFileError.contents(of: fileURL))
    }

    /// The document in service.
    public var currentDocument: (any TweakDocument)? { document }
}
