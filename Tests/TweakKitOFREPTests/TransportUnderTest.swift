import Testing
import TweakKitRemote

/// The transports the provider tests run on, with the same assertions for each.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient
    case urlSession

    var transport: any RemoteHTTPTransport {
        switch self {
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .urlSession: URLSessionTransport.shared
        }
    }

    var testDescription: String { rawValue }
}
