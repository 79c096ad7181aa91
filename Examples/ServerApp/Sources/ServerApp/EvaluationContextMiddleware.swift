import HTTPTypes
public import Hummingbird
public import TweakKit

/// Builds each request's evaluation context from its headers and evaluates the request's flags
/// with it (``EvaluationContext/current``, a task-local value):
///
/// | header          | context                        |
/// |-----------------|--------------------------------|
/// | `X-User-ID`     | the targeting key (bucketing)  |
/// | `X-Country`     | attribute `country`            |
/// | `X-App-Version` | attribute `appVersion`         |
public struct EvaluationContextMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the chain with the request's context as ``EvaluationContext/current``.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await EvaluationContext.$current.withValue(Self.evaluationContext(for: request)) {
            try await next(request, context)
        }
    }

    /// The evaluation context of one request.
    public static func evaluationContext(for request: Request) -> EvaluationContext {
        var context = EvaluationContext(targetingKey: nil, attributes: [:])
        if let user = header("X-User-ID", of: request), !user.isEmpty {
            context.targetingKey = user
        }
        if let country = header("X-Country", of: request) {
            context.attributes["country"] = .string(country.uppercased())
        }
        if let version = header("X-App-Version", of: request) {
            context.attributes["appVersion"] = .string(version)
        }
        return context
    }

    private static func header(_ name: String, of request: Request) -> String? {
        HTTPField.Name(name).flatMap { request.headers[$0] }
    }
}
