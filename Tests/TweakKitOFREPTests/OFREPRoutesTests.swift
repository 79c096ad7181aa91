import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
@testable import TweakKitServer

@Suite("OFREP routes")
struct OFREPRoutesTests {
    func application(_ ofrep: OFREPRoutes) -> some ApplicationProtocol {
        let router = Router()
        router.addRoutes(ofrep.routes())
        return Application(router: router)
    }

    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, String, HTTPFields) {
        try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            (response.status, String(buffer: response.body), response.headers)
        }
    }

    @Test("one flag: key, value, reason, variant and metadata, evaluated for the request's context")
    func single() async throws {
        let stack = try Stack()
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            let (status, text, _) = try await post(client, "/ofrep/v1/evaluate/flags/new-checkout", #"{"context": {"targetingKey": "u1", "country": "NL"}}"#)
            #expect(status == .ok)
            let body = try jsonObject(text)
            #expect(body["key"] == "new-checkout")
            #expect(body["value"] == true)
            #expect(body["variant"] == "on")
            #expect(body["reason"] == "TARGETING_MATCH")
            #expect(body["metadata"] == ["team": "payments"])
            let other = try jsonObject(try await post(client, "/ofrep/v1/evaluate/flags/new-checkout", #"{"context": {"country": "DE"}}"#).1)
            #expect(other["value"] == false)
        }
    }

    @Test("every type, a whole double written 1.0, and a variant even where the provider has none")
    func types() async throws {
        let stack = try Stack()
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            let ratio = try await post(client, "/ofrep/v1/evaluate/flags/ui.ratio", "{}").1
            #expect(ratio.contains(#""value":1.0"#))
            #expect(try jsonObject(try await post(client, "/ofrep/v1/evaluate/flags/banner", "").1)["value"] == "Hi")
            #expect(try jsonObject(try await post(client, "/ofrep/v1/evaluate/flags/theme", #"{"context": {}}"#).1)["value"] == ["bg": "white"])
            let split = try jsonObject(try await post(client, "/ofrep/v1/evaluate/flags/checkout.max-items", #"{"context": {"targetingKey": "user-7"}}"#).1)
            #expect(split["reason"] == "TARGETING_MATCH")
            #expect(split["value"] == 5 || split["value"] == 50)
            let label = try jsonObject(try await post(client, "/ofrep/v1/evaluate/flags/ui.label", "{}").1)
            #expect(label["value"] == "Hello")
            #expect(label["variant"] == "")
            #expect(label["reason"] == "STATIC")
        }
    }

    @Test("errors: FLAG_NOT_FOUND 404, PARSE_ERROR and INVALID_CONTEXT 400, a disabled flag without value")
    func errors() async throws {
        let stack = try Stack()
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            let (missingStatus, missingText, _) = try await post(client, "/ofrep/v1/evaluate/flags/nope", "{}")
            #expect(missingStatus == .notFound)
            let missing = try jsonObject(missingText)
            #expect(missing["errorCode"] == "FLAG_NOT_FOUND")
            #expect(missing["key"] == "nope")
            #expect(missing["errorDetails"] != nil)
            let (brokenStatus, brokenText, _) = try await post(client, "/ofrep/v1/evaluate/flags/broken", "{}")
            #expect(brokenStatus == .badRequest)
            #expect(try jsonObject(brokenText)["errorCode"] == "PARSE_ERROR")
            let (retiredStatus, retiredText, _) = try await post(client, "/ofrep/v1/evaluate/flags/retired", "{}")
            #expect(retiredStatus == .ok)
            let retired = try jsonObject(retiredText)
            #expect(retired["reason"] == "DISABLED")
            #expect(retired["value"] == nil)
            #expect(retired["variant"] == "")
            for body in [#"{"context": 5}"#, #"{"context": {"targetingKey": 3}}"#, "[1]"] {
                let (status, text, _) = try await post(client, "/ofrep/v1/evaluate/flags/banner", body)
                #expect(status == .badRequest)
                #expect(try jsonObject(text)["errorCode"] == "INVALID_CONTEXT", "\(body)")
            }
            let (badStatus, badText, _) = try await post(client, "/ofrep/v1/evaluate/flags/banner", "{")
            #expect(badStatus == .badRequest)
            #expect(try jsonObject(badText)["errorCode"] == "PARSE_ERROR")
        }
    }

    @Test("bulk: every flag with an ETag; If-None-Match answers 304 until a value or a definition changes")
    func bulk() async throws {
        let stack = try Stack()
        let context = #"{"context": {"targetingKey": "u1", "country": "NL"}}"#
        try await application(OFREPRoutes(manager: stack.manager)).test(.router) { client in
            let (status, text, headers) = try await post(client, "/ofrep/v1/evaluate/flags", context)
            #expect(status == .ok)
            let tag = try #require(headers[.eTag])
            guard case .array(let flags)? = try jsonObject(text)["flags"] else { Issue.record("no flags array"); return }
            let byKey = Dictionary(uniqueKeysWithValues: flags.compactMap { flag -> (String, TweakContent)? in
                guard case .object(let fields) = flag, case .string(let key)? = fields["key"] else { return nil }
                return (key, flag)
            })
            #expect(Set(byKey.keys) == ["new-checkout", "banner", "checkout.max-items", "ui.ratio", "theme", "retired", "broken", "ui.label"])
            #expect(byKey["new-checkout"]?.objectValue?["value"] == true)
            #expect(byKey["broken"]?.objectValue?["errorCode"] == "PARSE_ERROR")

            let (notModified, empty, again) = try await post(client, "/ofrep/v1/evaluate/flags", context, headers: [.ifNoneMatch: tag])
            #expect(notModified == .notModified)
            #expect(empty.isEmpty)
            #expect(again[.eTag] == tag)

            // Another context with the same tag is answered in full.
            #expect(try await post(client, "/ofrep/v1/evaluate/flags", #"{"context": {"country": "DE"}}"#, headers: [.ifNoneMatch: tag]).0 == .ok)

            try stack.overrides.store("Howdy", feature: "banner", variable: "value")
            let (changed, _, changedHeaders) = try await post(client, "/ofrep/v1/evaluate/flags", context, headers: [.ifNoneMatch: tag])
            #expect(changed == .ok)
            let secondTag = try #require(changedHeaders[.eTag])
            #expect(secondTag != tag)

            // A definition change that leaves this context's answer as it was still changes the tag.
            try stack.flags.update(data: Data(flagdDefinitions.replacingOccurrences(of: #""long": "Hello there""#, with: #""long": "Hello again""#).utf8))
            let (redefined, _, redefinedHeaders) = try await post(client, "/ofrep/v1/evaluate/flags", context, headers: [.ifNoneMatch: secondTag])
            #expect(redefined == .ok)
            #expect(redefinedHeaders[.eTag] != secondTag)
        }
    }

    @Test("an API key and a bearer token can be required")
    func authorization() async throws {
        let stack = try Stack()
        let key = try #require(HTTPField.Name("X-API-Key"))
        try await application(OFREPRoutes(manager: stack.manager, requiredToken: "s3cret-token", apiKey: "k3y")).test(.router) { client in
            let nothing = try await post(client, "/ofrep/v1/evaluate/flags/banner", "{}").0
            let keyOnly = try await post(client, "/ofrep/v1/evaluate/flags/banner", "{}", headers: [key: "k3y"]).0
            let wrongKey = try await post(client, "/ofrep/v1/evaluate/flags", "{}", headers: [key: "wrong", .authorization: "Bearer s3cret-token"]).0
            let both = try await post(client, "/ofrep/v1/evaluate/flags/banner", "{}", headers: [key: "k3y", .authorization: "Bearer s3cret-token"]).0
            #expect([nothing, keyOnly, wrongKey] == [.unauthorized, .unauthorized, .unauthorized])
            #expect(both == .ok)
        }
    }

    @Test("a flag key names feature.variable, or a bare flagd-style key")
    func keys() {
        #expect(OFREPFlagKey.candidates(for: "checkout.theme") == [TweakID(feature: "checkout", variable: "theme")])
        #expect(OFREPFlagKey.candidates(for: "dark-mode") == [TweakID(feature: "dark-mode", variable: "enabled"), TweakID(feature: "dark-mode", variable: "value")])
        #expect(OFREPRoutes.matches(#"W/"abc", "def""#, #""abc""#))
        // `*` is a precondition of its own on POST (412), not a match (304).
        #expect(!OFREPRoutes.matches("*", #""x""#))
        #expect(OFREPRoutes.namesAny(#""a", *"#))
        #expect(!OFREPRoutes.matches(#""abd""#, #""abc""#))
    }
}

extension TweakContent {
    var objectValue: [String: TweakContent]? {
        if case .object(let object) = self { return object }
        return nil
    }
}
