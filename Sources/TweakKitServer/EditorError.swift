import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import TweakKit

/// An API error: a status and a message, answered as `{"error": "…"}` plus any `details`
/// (a stale write's `currentVersion`).
struct EditorError: Error, HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    var details: [String: TweakContent]

    init(_ status: HTTPResponse.Status, _ message: String, details: [String: TweakContent] = [:]) {
        self.status = status
        self.message = message
        self.details = details
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = details
        body["error"] = .string(message)
        return TweakEditor.jsonResponse(.object(body), status: status)
    }
}

/// Turns every error of the editor's routes, Hummingbird's own included, into `{"error": "…"}`.
struct EditorErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as EditorError {
            throw error
        } catch let error as HTTPError {
            throw EditorError(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            throw EditorError(.internalServerError, "\(error)")
        }
    }
}
