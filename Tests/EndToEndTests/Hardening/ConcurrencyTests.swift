import FXTestServer
import Foundation
import TestSupport
import Testing

/// Several `trip` processes writing one ledger at once: every write lands, none fails with
/// "database is locked" (writers wait on the busy timeout behind `BEGIN IMMEDIATE`), and the first
/// open of a new ledger (folder, file, WAL switch, migrations) is safe when processes race for it.
@Suite("Hardening: concurrent trip processes", .serialized)
struct ConcurrencyTests {
    /// Runs `script` with `/bin/sh -c` in `trip`'s environment plus `TRIP` (the binary), in the
    /// background.
    static func shell(_ trip: TripProcess, _ script: String, extra: [String: String] = [:]) throws -> SpawnedProcess {
        try SpawnedProcess(
            "/bin/sh", ["-c", script], environment: trip.environment.merging(["TRIP": TripProcess.binary]) { $1 }.merging(extra) { $1 })
    }

    static func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func eightProcessesAddingAtOnceLoseNothing() throws {
        let workers = 8
        let adds = HardeningScale.pick(short: 30, long: 500)
        let folder = TemporaryFolder("trip-concurrent-add")
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Shared", "--currency", "EUR", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "EUR", "1.0825", "--in", "USD").exitCode == 0)
        let start = DispatchTime.now()
        // Each worker runs its adds one after another; the workers run side by side.
        let loops = try (0..<workers).map { w in
            try Self.shell(
                trip,
                """
                i=1
                while [ $i -le \(adds) ]; do
                  "$TRIP" add 12.5 --note "w\(w)-$i" --trip Shared >/dev/null 2>>"$OUT.err" || echo "add $i exited $?" >>"$OUT.fail"
                  i=$((i + 1))
                done
                """, extra: ["OUT": folder.file("worker\(w)")])
        }
        for p in loops { p.wait() }
        let seconds = secondsSince(start)
        for w in 0..<workers {
            #expect(Self.contents(folder.file("worker\(w).fail")).isEmpty, "worker \(w)")
            #expect(Self.contents(folder.file("worker\(w).err")).isEmpty, "worker \(w)")
        }
        let total = workers * adds
        let path = trip.ledgerPath
        #expect(try LedgerInspection.integrity(path) == "ok")
        let present = try LedgerInspection.count(path, "SELECT count(*) FROM purchases")
        #expect(present == total)
        #expect(try LedgerInspection.count(path, "SELECT count(DISTINCT id) FROM purchases") == total)
        #expect(try LedgerInspection.count(path, "SELECT count(DISTINCT note) FROM purchases") == total)
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM purchases WHERE home_minor = 1353") == total)
        print("concurrency: \(workers) processes × \(adds) adds: \(present)/\(total) present, \(String(format: "%.1f", seconds)) s")
    }

    @Test func eightProcessesOpeningANewLedgerAtOnce() throws {
        let rounds = HardeningScale.pick(short: 8, long: 40)
        let folder = TemporaryFolder("trip-concurrent-open")
        var failures: [String] = []
        for r in 0..<rounds {
            // Neither the folder nor the file exists: all eight create, switch to WAL and migrate.
            let path = folder.file("round\(r)/data/ledger.sqlite")
            let children = try (0..<8).map { i in
                try SpawnedTrip(
                    TripProcess(ledgerPath: path), ["new", "T\(i)", "--currency", "USD", "--home", "USD"],
                    label: "new\(i)", outputPrefix: folder.file("round\(r)"))
            }
            for (i, child) in children.enumerated() {
                let status = child.wait()
                if status.exitCode != 0 || !child.stderr.isEmpty { failures.append("round \(r), process \(i): \(status) \(child.stderr)") }
            }
            #expect(try LedgerInspection.integrity(path) == "ok")
            #expect(try LedgerInspection.count(path, "SELECT count(*) FROM trips") == 8, "round \(r)")
            let version = try LedgerInspection.count(path, "PRAGMA user_version")
            #expect(version > 0)
            #expect(try LedgerInspection.count(path, "SELECT count(*) FROM schema_migrations") == version, "round \(r)")
            #expect(LedgerInspection.mode(folder.file("round\(r)/data")) == 0o700)
            #expect(LedgerInspection.mode(path) == 0o600)
        }
        #expect(failures.isEmpty, "\(failures)")
        print("concurrency: \(rounds) rounds of 8 processes creating one new ledger: \(failures.count) failures")
    }

    @Test func ratesSyncWhileAddingLosesNeitherWrite() throws {
        let adds = HardeningScale.pick(short: 60, long: 300)
        let folder = TemporaryFolder("trip-concurrent-sync")
        let mirror = try ECBMirror(folder: folder)
        defer { withExtendedLifetime(mirror) {} }  // the server serves until the test ends
        let trip = mirror.trip(folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Xmas", "--currency", "JPY", "--home", "USD").exitCode == 0)
        let seed = folder.file("seed.csv")
        try CrashSafetyTests.unconvertedJPYCSV(rows: 2_000).write(toFile: seed, atomically: false, encoding: .utf8)
        try #require(trip.run("import", seed).exitCode == 0)

        let out = folder.file("run")
        let start = DispatchTime.now()
        let adder = try Self.shell(
            trip,
            """
            i=1
            while [ $i -le \(adds) ]; do
              day=$(( (i % 28) + 1 )); [ $day -lt 10 ] && day=0$day
              "$TRIP" add 1500 --date 2017-02-$day --note "add-$i" >/dev/null 2>>"$OUT.add.err" || echo "add $i exited $?" >>"$OUT.fail"
              i=$((i + 1))
            done
            touch "$OUT.done"
            """, extra: ["OUT": out])
        // Syncs back to back for as long as the adds run, then one more after the last add.
        let syncer = try Self.shell(
            trip,
            """
            n=0
            while :; do
              "$TRIP" rates sync >/dev/null 2>>"$OUT.sync.err" || echo "sync $n exited $?" >>"$OUT.fail"
              [ -e "$OUT.done" ] && break
              # This sync began and ended while the adds ran.
              n=$((n + 1))
            done
            "$TRIP" rates sync >/dev/null 2>>"$OUT.sync.err" || echo "final sync exited $?" >>"$OUT.fail"
            echo $n >"$OUT.syncs"
            """, extra: ["OUT": out])
        adder.wait()
        syncer.wait()
        let seconds = secondsSince(start)
        #expect(Self.contents(out + ".fail").isEmpty)
        #expect(Self.contents(out + ".add.err").isEmpty)
        #expect(Self.contents(out + ".sync.err").isEmpty)
        let syncs = Int(Self.contents(out + ".syncs").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(syncs >= 1, "at least one rates sync ran and ended while the adds were still running")
        let path = trip.ledgerPath
        #expect(try LedgerInspection.integrity(path) == "ok")
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM purchases") == 2_000 + adds)
        #expect(try LedgerInspection.count(path, "SELECT count(DISTINCT note) FROM purchases WHERE note LIKE 'add-%'") == adds)
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM provider_state") == 1)
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM rate_observations") > 1_000)
        #expect(
            try LedgerInspection.count(path, "SELECT count(*) FROM purchases WHERE rate_source = 'provider' AND provisional = 0")
                == 2_000 + adds)
        print("concurrency: \(adds) adds alongside \(syncs + 1) rates syncs: all present and re-rated, \(String(format: "%.1f", seconds)) s")
    }
}
