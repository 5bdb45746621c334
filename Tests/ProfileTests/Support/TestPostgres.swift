import Foundation
import Logging
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStorePostgres
import Scenery
import ScenerySiteStorePostgres
import Synchronization

/// A real PostgreSQL server for the tests, on loopback, in a temporary directory, on a free
/// port, run by an unprivileged user (the `postgres` account when the tests run as root):
/// `initdb` and `pg_ctl` from the system's PostgreSQL (Debian's `postgresql` package, which
/// `.ci/run` installs). Without them the tests that need it fail, saying what to install.
///
/// ```swift
/// let url = try await TestPostgres.shared.newDatabase()   // an empty database of its own
/// let store = try await PostgresProfileStore.connect(to: url)
/// ```
final class TestPostgres: Sendable {
    /// The server every test shares (each in databases of its own); stopped when the test
    /// process exits.
    static let shared = Locked<Task<TestPostgres, any Error>?>(nil)

    /// The shared server, started on first use.
    static func sharedServer() async throws -> TestPostgres {
        let task = shared.withLock { task in
            if let task { return task }
            let started = Task { try await TestPostgres() }
            task = started
            return started
        }
        return try await task.value
    }

    let directory: URL
    let port: Int
    let binaries: URL
    let user: String?
    private let databases = Atomic<Int>(0)

    /// Makes and starts a server of its own (stopped by ``stop(immediately:)``, or at exit).
    init() async throws {
        binaries = try Self.findBinaries()
        user = getuid() == 0 ? "postgres" : nil
        directory = FileManager.default.temporaryDirectory.appending(path: "scenery-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let user {
            try await Self.run("/bin/chown", [user, directory.path])
        }
        port = try Self.serverPort()
        try await runAsServerUser(
            "initdb", ["-D", directory.appending(path: "data").path, "-A", "trust", "-U", "scenery", "--locale=C", "-E", "UTF8", "--no-sync"])
        try await start()
        Self.stopAtExit(self)
    }

    /// The database server's URL for `database`.
    func url(_ database: String) throws -> PostgresURL {
        try PostgresURL("postgres://scenery@127.0.0.1:\(port)/\(database)?sslmode=disable")
    }

    /// A new, empty database on the server.
    func newDatabase() async throws -> PostgresURL {
        let name = "test_\(databases.add(1, ordering: .relaxed).newValue)_\(UUID().uuidString.prefix(6).lowercased())"
        try await runAsServerUser("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "scenery", name])
        return try url(name)
    }

    /// Starts the server and returns once it accepts connections.
    func start() async throws {
        try await runAsServerUser(
            "pg_ctl",
            [
                "-D", directory.appending(path: "data").path, "-l", directory.appending(path: "server.log").path, "-w", "-t", "60",
                "-o", "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300", "start",
            ])
    }

    /// Stops the server: `immediately` as a crash would (no shutdown checkpoint, clients cut
    /// off), else cleanly.
    func stop(immediately: Bool = false) async throws {
        try await runAsServerUser("pg_ctl", stopArguments(immediately: immediately))
    }

    private func stopArguments(immediately: Bool) -> [String] {
        ["-D", directory.appending(path: "data").path, "-m", immediately ? "immediate" : "fast", "-w", "stop"]
    }

    /// Runs SQL on `database` as the superuser (psql).
    func execute(_ sql: String, in database: String) async throws {
        try await runAsServerUser("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "scenery", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
    }

    private func runAsServerUser(_ program: String, _ arguments: [String]) async throws {
        let (path, arguments) = commandAsServerUser(program, arguments)
        try await Self.run(path, arguments)
    }

    private func commandAsServerUser(_ program: String, _ arguments: [String]) -> (String, [String]) {
        let path = binaries.appending(path: program).path
        guard let user else { return (path, arguments) }
        return ("/usr/sbin/runuser", ["-u", user, "--", path] + arguments)
    }

    // MARK: - Helpers

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder of `initdb`, `pg_ctl`, `createdb` and `psql`: Debian's newest
    /// `/usr/lib/postgresql/N/bin`, else the `PATH`'s.
    static func findBinaries() throws -> URL {
        let root = URL(filePath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let folder = root.appending(path: "\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: folder.appending(path: "pg_ctl").path) { return folder }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            if FileManager.default.isExecutableFile(atPath: "\(folder)/pg_ctl") { return URL(filePath: String(folder)) }
        }
        throw Failure(
            description:
                "These tests run a real PostgreSQL server, and its programs (initdb, pg_ctl) are not installed: install Debian's postgresql package (apt-get install postgresql), or run .ci/run, which does."
        )
    }

    /// Runs a program to its end; throws with its output when it fails. (posix_spawn and
    /// waitpid rather than Foundation's Process, whose reaping of a child that leaves a
    /// server running behind it was seen to never return here; with every descriptor of
    /// this process above standard error closed in the child.)
    static func run(_ path: String, _ arguments: [String]) async throws {
        // On a thread of its own: waiting for a program (psql waiting for a lock a test's
        // transaction holds) must not hold one of the few threads that run the tests' tasks.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(path, arguments) })
            }
        }
    }

    static func runBlocking(_ path: String, _ arguments: [String]) throws {
        let outputFile = FileManager.default.temporaryDirectory.appending(path: "scenery-pg-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process: a server pg_ctl starts would otherwise keep the test
        // process's own sockets (a stopped test server's listening port) open for its life.
        guard let closeFrom = Self.addCloseFrom else {
            throw Failure(description: "This C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has it).")
        }
        _ = closeFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "Cannot run \(path): \(String(cString: strerror(spawned))).") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (the wait status's low byte is 0, its next byte the code).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which its Swift module does not
    /// export, looked up by name.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// A free TCP port below the range the system hands out to outgoing connections, so a
    /// server that is stopped and started again finds its port still free: within that range
    /// any connection of the suite may take it as its own end meanwhile (a restart once
    /// failed so, "Address already in use").
    static func serverPort() throws -> Int {
        let lowestEphemeral =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
        for _ in 0..<200 {
            let port = Int.random(in: 10_000..<max(10_001, lowestEphemeral))
            if isFree(port) { return port }
        }
        return try freePort()
    }

    /// A TCP port nothing listens on now.
    static func freePort() throws -> Int {
        guard let port = bound(0) else { throw Failure(description: "Cannot find a free port on 127.0.0.1.") }
        return port
    }

    /// Whether nothing is bound to `port` on 127.0.0.1 now.
    private static func isFree(_ port: Int) -> Bool { bound(port) != nil }

    /// Binds a socket to `port` on 127.0.0.1 (0: any free one) and closes it; the port it
    /// had, or `nil` when the port is taken.
    private static func bound(_ port: Int) -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static let running = Locked<[TestPostgres]>([])

    /// Stops `server` when the test process exits (the servers are the process's own).
    private static func stopAtExit(_ server: TestPostgres) {
        let first = running.withLock { servers in
            servers.append(server)
            return servers.count == 1
        }
        if first {
            atexit {
                for server in TestPostgres.running.withLock({ $0 }) {
                    let (path, arguments) = server.commandAsServerUser("pg_ctl", server.stopArguments(immediately: true))
                    try? TestPostgres.runBlocking(path, arguments)
                    try? FileManager.default.removeItem(at: server.directory)
                }
            }
        }
    }
}
