import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The throwaway PostgreSQL 15 cluster of the sharing tests: started once per test process by
/// `Tests/Postgres/pg-cluster.sh` on a free loopback port in a temporary folder, stopped when the
/// process exits. Each test takes a database of its own (`freshDatabase()`), so tests running in
/// parallel never see each other's trips.
///
/// Roles (password `NAME-pw`): `tripadmin` (owns the databases, runs `trip remote init`) and the
/// travellers `ana`, `ben`, `carla`, `dave`.
public final class PostgresCluster: @unchecked Sendable {
    public let port: Int
    public let folder: String

    /// Started on first use; a failure to start fails every sharing test with the reason.
    public static let shared: Result<PostgresCluster, PostgresClusterError> = {
        do throws(PostgresClusterError) { return .success(try launch(label: "shared")) } catch { return .failure(error) }
    }()

    /// A cluster of its own, for a test that stops or restarts the server.
    public static func startPrivate(_ label: String) throws -> PostgresCluster { try launch(label: label) }

    private static func launch(label: String) throws(PostgresClusterError) -> PostgresCluster {
        let folder = NSTemporaryDirectory() + "/trip-pg-\(getpid())-\(label)"
        let out = try PostgresCluster.script("start", folder, String(getpid()))
        guard let port = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PostgresClusterError(message: "pg-cluster.sh start printed \(out)")
        }
        return PostgresCluster(port: port, folder: folder)
    }

    /// The cluster, or a test failure naming why it could not start.
    public static func start() throws -> PostgresCluster { try shared.get() }

    init(port: Int, folder: String) {
        self.port = port
        self.folder = folder
    }

    /// A libpq URI for `role` on `database` (password `ROLE-pw`, or `password`).
    public func url(_ role: String, database: String, password: String? = nil) -> String {
        "postgresql://\(role):\(password ?? role.replacingOccurrences(of: "tripadmin", with: "admin") + "-pw")@127.0.0.1:\(port)/\(database)"
    }

    nonisolated(unsafe) private static var counter = 0
    private static let lock = NSLock()

    /// A new empty database owned by `tripadmin`.
    public func freshDatabase() throws -> String {
        PostgresCluster.lock.lock()
        PostgresCluster.counter += 1
        let name = "t\(getpid())_\(PostgresCluster.counter)"
        PostgresCluster.lock.unlock()
        try psql("tripadmin", database: "postgres", "CREATE DATABASE \(name)")
        return name
    }

    /// Runs SQL through `psql` as `role`; returns stdout (unaligned, tuples only), or throws with
    /// psql's stderr.
    @discardableResult
    public func psql(_ role: String, database: String, _ sql: String) throws -> String {
        let r = try spawnAndWait(
            "/usr/bin/psql",
            ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", url(role, database: database), "-c", sql]
                .map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin"])
        guard r.exitCode == 0 else {
            throw PostgresClusterError(message: String(decoding: r.stderr, as: UTF8.self))
        }
        return String(decoding: r.stdout, as: UTF8.self)
    }

    /// Stops the server (`halt`) or stops and starts it (`restart`), for the fault tests.
    public func control(_ command: String) throws {
        _ = try PostgresCluster.script(command, folder)
    }

    static func script(_ command: String, _ folder: String, _ extra: String...) throws(PostgresClusterError) -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Postgres/pg-cluster.sh").path
        let r: SpawnResult
        do {
            r = try spawnAndWait(
                "/bin/bash", ([path, command, folder] + extra).map { Array($0.utf8) },
                environment: ["PATH": "/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"])
        } catch {
            throw PostgresClusterError(message: "cannot run \(path): \(error)")
        }
        guard r.exitCode == 0 else {
            throw PostgresClusterError(
                message: "pg-cluster.sh \(command) failed (install postgresql-15: `make test-deps`): "
                    + String(decoding: r.stderr, as: UTF8.self))
        }
        return String(decoding: r.stdout, as: UTF8.self)
    }
}

public struct PostgresClusterError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
