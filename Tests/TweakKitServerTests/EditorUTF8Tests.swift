import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
@testable import TweakKitServer

@Suite("The editor refuses a body that is not UTF-8")
struct EditorUTF8Tests {
    @Test("PUT with a byte that is not UTF-8 is 400 naming its offset, and writes nothing")
    func invalidUTF8() async throws {
        let setup = try Editor()
        let prefix = Array(#"{"value": "caf"#.utf8)
        let body = prefix + [0xE9] + Array(#""}"#.utf8)
        try await setup.application().test(.router) { client in
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: auth, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("invalid byte 0xE9 at byte offset \(prefix.count)"), "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/api/tweaks/ui/label", method: .put, headers: auth, body: ByteBuffer(string: #"{"value": "café"}"#)) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(setup.overrides.allTweaks().map(\.content) == ["café"])
    }
}
