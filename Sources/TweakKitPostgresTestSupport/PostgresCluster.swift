import Foundation
import Logging
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server for the package's tests of the PostgreSQL store (not a product).
///
/// ``shared`` is `TWEAKKIT_POSTGRES_URL` when that is set (a server CI started), otherwise a
/// throwaway cluster: `initdb` into a temporary directory as the `postgres` user (initdb refuses
/// root), `pg_ctl start` on a free port on 127.0.0.1, stopped when the test process exits. Each test
/// gets a database of its own from ``freshDatabaseURL()``, so tests run in parallel.
///
/// ``start()`` starts a private cluster, for a test that stops and restarts its server.
public final class PostgresCluster: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `postgres://user@host:port/` with no database: ``freshDatabaseURL()`` appends one.
    public let baseURL: String
    public let port: Int
    /// The data directory, when this process started the server.
    public let directory: String?
    private let bin: String?

    private init(baseURL: String, port: Int, directory: String?, bin: String?) {
        self.baseURL = baseURL
        self.port = port
        self.directory = directory
        self.bin = bin
    }

    private static let sharedTask = Task<PostgresCluster, any Error> {
        if let url = ProcessInfo.processInfo.environment["TWEAKKIT_POSTGRES_URL"], !url.isEmpty {
            guard let components = URLComponents(string: url), let host = components.host, let user = components.user else {
                throw Failure(description: "TWEAKKIT_POSTGRES_URL '\(url)' is not postgres://user@host:port/database")
            }
            let password = components.password.map { ":\($0)" } ?? ""
            let port = components.port ?? 5432
            return PostgresCluster(baseURL: "postgres://\(user)\(password)@\(host):\(port)/", port: port, directory: nil, bin: nil)
        }
        let cluster = try await start()
        registerForExit(cluster)
        return cluster
    }

    /// The cluster every test shares.
    public static var shared: PostgresCluster {
        get async throws { try await sharedTask.value }
    }

    /// A new, empty database on the shared cluster, as a `postgres://` URL.
    public static func freshDatabaseURL() async throws -> String {
        try await shared.freshDatabaseURL()
    }

    /// A new, empty database on this cluster, as a `postgres://` URL.
    public func freshDatabaseURL() async throws -> String {
        let name = "tweakkit_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await administer("CREATE DATABASE \(name)")
        return baseURL + name
    }

    /// Runs one statement on the `postgres` database.
    public func administer(_ statement: String) async throws {
        guard let components = URLComponents(string: baseURL), let host = components.host, let user = components.user else {
            throw Failure(description: "cannot read the cluster URL \(baseURL)")
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: "postgres", tls: .disable
        )
        configuration.options.connectTimeout = .seconds(10)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "PostgresCluster"))
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "PostgresCluster"))
        } catch {
            try? await connection.close()
            throw Failure(description: "\(statement) on \(baseURL) failed: \(String(reflecting: error))")
        }
        try? await connection.close()
    }

    // MARK: A cluster of our own

    /// initdb and start a cluster in a new temporary directory on a free port.
    public static func start() async throws -> PostgresCluster {
        let bin = try binaries()
        let directory = FileManager.default.temporaryDirectory.appending(path: "tweakkit-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "running as root, but there is no postgres user to run initdb as (install Debian's postgresql package)")
            }
            guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(directory) to the postgres user: errno \(errno)")
            }
        }
        try await run(bin + "/initdb", ["-D", directory + "/data", "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        let port = try freePort()
        let cluster = PostgresCluster(baseURL: "postgres://postgres@127.0.0.1:\(port)/", port: port, directory: directory, bin: bin)
        try await cluster.startServer()
        return cluster
    }

    /// `pg_ctl start`, waiting until the server accepts connections.
    public func startServer() async throws {
        guard let directory, let bin else { throw Failure(description: "the cluster at \(baseURL) was not started by this process") }
        try await Self.run(bin + "/pg_ctl", [
            "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "start", "-o",
            "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off",
        ])
    }

    /// `pg_ctl stop` (fast: connected clients are told, then disconnected).
    public func stopServer() async throws {
        guard let directory, let bin else { throw Failure(description: "the cluster at \(baseURL) was not started by this process") }
        try await Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-w", "-m", "fast", "stop"])
    }

    /// Stops (SIGSTOP) or resumes (SIGCONT) the server and every process it started: connections
    /// stay open but nothing answers, as when its host freezes or the network drops packets.
    public func signalServer(_ signal: Int32) throws {
        guard let directory else { throw Failure(description: "the cluster at \(baseURL) was not started by this process") }
        let pidFile = (try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        guard let line = pidFile.split(separator: "\n").first, let postmaster = Int32(line.trimmingCharacters(in: .whitespaces)) else {
            throw Failure(description: "no postmaster.pid in \(directory)/data")
        }
        var processes = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // Fields after the command name: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { processes.append(pid) }
        }
        for pid in processes { kill(pid, signal) }
    }

    /// Stops the server and deletes its directory.
    public func destroy() async {
        try? await stopServer()
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private static func binaries() throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
        }
        throw Failure(
            description: """
                PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb. Install Debian's package \
                (apt-get install -y postgresql; .ci/postgres.sh does) or set TWEAKKIT_POSTGRES_URL to a server.
                """
        )
    }

    /// A TCP port nothing listens on now, from the kernel (bind to port 0).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "cannot bind a free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a PostgreSQL tool, as the postgres user when this process is root; throws with its output on failure.
    private static func run(_ tool: String, _ arguments: [String]) async throws {
        let outputPath = FileManager.default.temporaryDirectory.appending(path: "tweakkit-pg-tool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        // waitpid on a thread of its own: the call blocks, and Foundation's Process would wait for
        // the server `pg_ctl start` leaves running too (it inherits the descriptor Process watches).
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try spawnAndWait(tool, arguments, outputPath: outputPath) })
            }
        }
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited with \(status):\n\(text)")
        }
    }

    #if canImport(Glibc)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not export.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
    #endif

    /// posix_spawn and waitpid: the tool's exit status, its output (stdout and stderr) in `outputPath`.
    private static func spawnAndWait(_ tool: String, _ arguments: [String], outputPath: String) throws -> Int32 {
        let command = geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else is inherited: the server pg_ctl starts outlives this call, and a pipe of the
        // test process left open in it (another test's `tweak` output) would never reach EOF.
        #if canImport(Glibc)
        guard let closeFrom = Self.addCloseFrom else {
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later is needed)")
        }
        _ = closeFrom(&actions, 3)
        #endif
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        #if canImport(Darwin)
        var attributes = posix_spawnattr_t(nil as OpaquePointer?)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        #else
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        #endif
        guard spawned == 0 else { throw Failure(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waiting for \(tool) failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS; a signal counts as failure.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    // MARK: Stopping at exit

    private static let started = Mutex<[String]>([])

    private static func registerForExit(_ cluster: PostgresCluster) {
        guard let directory = cluster.directory, let bin = cluster.bin else { return }
        let first = started.withLock { list in
            list.append("\(bin)\u{0}\(directory)")
            return list.count == 1
        }
        if first { atexit { PostgresCluster.stopAllAtExit() } }
    }

    private static func stopAllAtExit() {
        for entry in started.withLock({ $0 }) {
            let parts = entry.split(separator: "\u{0}").map(String.init)
            guard parts.count == 2 else { continue }
            _ = try? spawnAndWait(parts[0] + "/pg_ctl", ["-D", parts[1] + "/data", "-w", "-m", "immediate", "stop"], outputPath: "/dev/null")
            try? FileManager.default.removeItem(atPath: parts[1])
        }
    }
}
