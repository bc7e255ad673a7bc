import Foundation
import TestSupport
import Testing

/// The TLS promise of shared trips against a fake PostgreSQL server that declines TLS and asks for
/// the password in clear (`Tests/Postgres/fake-pg-server.py`). It listens on 10.0.0.5, an address
/// a test puts on the `lo` of a network namespace it made itself (`unshare -n`): nothing leaves
/// the namespace, and the server writes down every password it is sent.
@Suite("Shared trips: TLS cannot be bypassed, the password never goes out in clear")
struct RemoteTLSTests {
    /// Whether this machine lets a test make a network namespace and give its `lo` an address.
    static let namespaces: Bool = {
        (try? spawnAndWait(
            "/usr/bin/unshare", ["-n", "/bin/sh", "-c", "ip link set lo up && ip addr add 10.0.0.5/32 dev lo"].map { Array($0.utf8) },
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
        ).exitCode) == 0
    }()

    static let fakeServer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Postgres/fake-pg-server.py").path

    /// Runs `trip share` with `remote` inside a new network namespace where the fake server
    /// listens on 10.0.0.5:5432; returns trip's result and what the server received.
    static func share(_ remote: String) throws -> (stderr: String, exitCode: Int32, received: String) {
        let folder = TemporaryFolder("trip-tls")
        let trip = TripProcess(ledgerPath: folder.file("ana.sqlite"))
        try #require(trip.run("new", "Oslo", "--currency", "NOK", "--home", "NOK").exitCode == 0)
        var env = trip.environment
        env["PATH"] = "/usr/bin:/bin:/usr/sbin:/sbin"
        env["TRIP_REMOTE"] = remote
        env["PGCONNECT_TIMEOUT"] = "3"
        env["TRIP"] = TripProcess.binary
        env["FAKE"] = fakeServer
        env["LOG"] = folder.file("received")
        env["OUT"] = folder.path
        let script = """
            ip link set lo up && ip addr add 10.0.0.5/32 dev lo || exit 90
            python3 "$FAKE" 10.0.0.5 5432 "$LOG" & fake=$!
            trap 'kill -9 $fake 2>/dev/null' EXIT
            for i in $(seq 100); do [ -e "$LOG.ready" ] && break; sleep 0.05; done
            [ -e "$LOG.ready" ] || exit 91
            "$TRIP" share > "$OUT/stdout" 2> "$OUT/stderr"; echo $? > "$OUT/rc"
            kill $fake
            """
        let r = try spawnAndWait("/usr/bin/unshare", ["-n", "/bin/bash", "-c", script].map { Array($0.utf8) }, environment: env)
        #expect(r.exitCode == 0, "the namespace's script: \(String(decoding: r.stderr, as: UTF8.self))")
        func read(_ name: String) -> String { (try? String(contentsOfFile: folder.file(name), encoding: .utf8)) ?? "" }
        let code = Int32(read("rc").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (read("stderr"), code, read("received"))
    }

    /// Each way round the loopback exemption that worked before: refused before connecting (64),
    /// or connecting only with TLS required, which the fake server declines (69). Either way the
    /// server never sees the password.
    @Test(arguments: [
        // A DNS name that merely starts with "127.".
        ("postgresql://ben:ben-secret@127.evil.example/trips?sslmode=disable", Int32(64)),
        // hostaddr decides where libpq goes; a loopback host beside it proves nothing.
        ("host=localhost hostaddr=10.0.0.5 user=ben password=ben-secret dbname=trips sslmode=disable", 64),
        ("host=localhost,10.0.0.5 user=ben password=ben-secret dbname=trips sslmode=prefer", 64),
        // No sslmode at all: libpq's default (prefer) would fall back to clear text.
        ("host=localhost hostaddr=10.0.0.5 user=ben password=ben-secret dbname=trips", 69),
        ("postgresql://ben:ben-secret@10.0.0.5/trips", 69),
        ("postgresql://ben:ben-secret@10.0.0.5/trips?sslmode=verify-ca&sslrootcert=system", 69),
    ])
    func aServerOffThisMachineNeverGetsThePasswordWithoutVerifiedTLS(remote: String, exit: Int32) throws {
        guard prerequisite(Self.namespaces, "a network namespace (unshare -n, ip) for the fake PostgreSQL server") else { return }
        let result = try Self.share(remote), received = result.received
        #expect(result.exitCode == exit, "\(remote): \(result.stderr)")
        #expect(result.stderr.hasPrefix("trip: remote: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!received.contains("password"), "the fake server was sent the password: \(received)")
        #expect(!result.stderr.contains("ben-secret"), "\(result.stderr)")
        if exit == 64 {
            #expect(result.stderr.contains("verify-full"), "\(result.stderr)")
            #expect(received.isEmpty, "refused before connecting: \(received)")
        }
    }

    /// The fake server does write down a password when one reaches it: the check above can fail.
    @Test func theFakeServerRecordsAPasswordSentInClear() throws {
        guard prerequisite(Self.namespaces, "a network namespace (unshare -n, ip) for the fake PostgreSQL server") else { return }
        // sslmode=disable to a real loopback address of the namespace is allowed by design.
        let folder = TemporaryFolder("trip-tls-probe")
        let script = """
            ip link set lo up && ip addr add 10.0.0.5/32 dev lo || exit 90
            python3 "$FAKE" 10.0.0.5 5432 "$LOG" & fake=$!
            trap 'kill -9 $fake 2>/dev/null' EXIT
            for i in $(seq 100); do [ -e "$LOG.ready" ] && break; sleep 0.05; done
            PGPASSWORD=probe-secret PGCONNECT_TIMEOUT=3 psql -X "host=10.0.0.5 user=ben dbname=trips sslmode=prefer" -c 'SELECT 1' >/dev/null 2>&1
            kill $fake
            """
        let env = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "FAKE": Self.fakeServer, "LOG": folder.file("received")]
        _ = try spawnAndWait("/usr/bin/unshare", ["-n", "/bin/bash", "-c", script].map { Array($0.utf8) }, environment: env)
        let received = (try? String(contentsOfFile: folder.file("received"), encoding: .utf8)) ?? ""
        #expect(received.contains("tls-request") && received.contains("password probe-secret"), "\(received)")
    }
}
