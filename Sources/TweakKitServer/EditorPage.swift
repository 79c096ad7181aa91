import Foundation
import Hummingbird
import HTTPTypes
import NIOCore

extension TweakEditor {
    /// The editor page: static HTML, CSS and script, no external resources. Tweak texts are put
    /// into the page with `textContent` only, so a title like `<script>` shows as text.
    ///
    /// The page is three web files (`Editor/editor.html`, `editor.css`, `editor.js`, resources of
    /// this module), read and put together once; each answer only adds a fresh CSP nonce.
    func page(_ request: Request) throws -> Response {
        let template: String
        switch EditorPage.template {
        case .success(let text): template = text
        case .failure(let problem): throw EditorError(.internalServerError, problem.description)
        }
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let html = template.replacingOccurrences(of: "{{nonce}}", with: nonce)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'self'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }
}

/// The editor page's web files, found among the module's resources and read once.
enum EditorPage {
    /// The resources that cannot be found or read: the page answers 500 with this text; the API
    /// keeps working.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// `editor.html` with `editor.css`, `editor.js` and `flags.js` (the Flags view) put in;
    /// `{{nonce}}` is left for each answer.
    static let template: Result<String, Missing> = Result { () throws(Missing) -> String in
        let directory = try resourceDirectory()
        func read(_ name: String) throws(Missing) -> String {
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw Missing(description: "the editor page's file \(url.path) cannot be read")
            }
            return String(decoding: data, as: UTF8.self)
        }
        return try read("editor.html")
            .replacingOccurrences(of: "{{style}}", with: try read("editor.css"))
            .replacingOccurrences(of: "{{script}}", with: try read("editor.js") + "\n" + read("flags.js"))
    }

    static let bundleName = "TweakKit_TweakKitServer"

    /// Where SwiftPM puts the module's resources: beside the executable (a `.resources` directory
    /// on Linux, a `.bundle` on Apple platforms), also when the executable is reached by a symbolic
    /// link. Looked up by hand instead of with `Bundle.module`, which stops the process when the
    /// resources were not installed; here the page says so instead.
    static func resourceDirectory() throws(Missing) -> URL {
        var places: [URL] = [Bundle.main.bundleURL]
        if let resources = Bundle.main.resourceURL { places.append(resources) }
        if let executable = Bundle.main.executableURL {
            places.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        places += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        var tried: [String] = []
        for place in places {
            for candidate in [place.appendingPathComponent("\(bundleName).resources"), place.appendingPathComponent("\(bundleName).bundle")] {
                tried.append(candidate.path)
                for folder in [candidate.appendingPathComponent("Editor"), candidate.appendingPathComponent("Contents/Resources/Editor")]
                where FileManager.default.fileExists(atPath: folder.appendingPathComponent("editor.html").path) {
                    return folder
                }
            }
        }
        throw Missing(description: "the editor page's files (\(bundleName).resources) are not installed beside the executable; looked in \(tried.joined(separator: ", "))")
    }
}
