public import Hummingbird
public import TweakKit

/// Builds each request's evaluation context from its headers and evaluates the request's flags
/// with it (``EvaluationContext/current``):
///
/// | header          | context                        |
/// |-----------------|--------------------------------|
/// | `X-User-ID`     | the targeting key (bucketing)  |
/// | `X-Country`     | attribute `country`            |
/// | `X-App-Version` | attribute `appVersion`         |
public struct EvaluationContextMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await EvaluationContext.$current.withValue(Self.evaluationContext(for: request)) {
            try await next(request, context)
        }
    }

    /// The evaluation context of one request.
    public static func evaluationContext(for request: Request) -> EvaluationContext {
        var context = EvaluationContext()
        if let name = HTTPField.Name("X-User-ID"), let user = request.headers[name], !user.isEmpty {
            context.targetingKey = user
        }
        if let name = HTTPField.Name("X-Country"), let country = request.headers[name] {
            context.attributes["country"] = .string(country.uppercased())
        }
        if let name = HTTPField.Name("X-App-Version"), let version = request.headers[name] {
            context.attributes["appVersion"] = .string(version)
        }
        return context
    }
}
