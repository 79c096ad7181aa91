import Hummingbird
import NIOCore
import Prometheus
import TweakKit
import TweakKitStore

extension ServerApp {
    /// `GET /checkout`: `{"newCheckout": Bool, "variant": String?, "reason": String, "source": String?}`,
    /// evaluated with the request's context (set by ``EvaluationContextMiddleware``).
    func checkout() -> Response {
        let details = manager.evaluationDetails(for: .newCheckout)
        let body: TweakContent = [
            "newCheckout": .bool(details.value),
            "variant": details.variant.map(TweakContent.string) ?? .null,
            "reason": .string(details.reason.rawValue),
            "source": details.source.map(TweakContent.string) ?? .null,
        ]
        return json(body, status: .ok)
    }

    /// `GET /metrics`: the evaluation counters in Prometheus text format.
    func metrics() -> Response {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// `GET /health`: `{"status": "ok" | "degraded", "store": …}`. `degraded` (still HTTP 200)
    /// while the shared store fails: the service answers from its last snapshot meanwhile.
    func health() -> Response {
        var body: [String: TweakContent] = ["status": "ok"]
        if let store {
            if let error = store.lastError {
                body["status"] = "degraded"
                body["store"] = .string("error: \(error)")
            } else {
                body["store"] = "ok"
            }
        } else {
            body["store"] = "none (bundled defaults only)"
        }
        return json(.object(body), status: .ok)
    }

    private func json(_ body: TweakContent, status: HTTPResponse.Status) -> Response {
        let text = (try? body.jsonText()) ?? "{}"
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
