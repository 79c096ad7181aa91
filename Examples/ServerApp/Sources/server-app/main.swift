import Foundation
import Hummingbird
import ServerApp

// Serves on HOST:PORT (127.0.0.1:8080 by default) with the flags of TWEAK_STORE above the
// bundled defaults, or the bundled defaults alone; see ServerConfiguration.
do {
    let configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
    let flags = try await FlagStack.open(storeURL: configuration.storeURL)
    let app = ServerApp(flags: flags).application(host: configuration.host, port: configuration.port) { port in
        print("ServerApp listening on \(configuration.host):\(port), flags from \(configuration.storeURL.map(redactedStoreURL) ?? "the bundled defaults")")
    }
    do {
        try await app.runService()
    } catch {
        await flags.close()
        throw error
    }
    await flags.close()
} catch {
    FileHandle.standardError.write(Data("server-app: \(error)\n".utf8))
    exit(1)
}
