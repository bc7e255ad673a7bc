import TripCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripBench {
    /// Shared trips against a throwaway PostgreSQL on loopback (Tests/Postgres/pg-cluster.sh): the
    /// first `trip share` of the 20,000-purchase group trip and `trip join` of it on a new ledger,
    /// each beside `psql \copy` of the same trip's CSV export into a table, timed just before each
    /// run (target: within 10× its median);
    /// `trip sync` with nothing to do (≤ 50 ms, connection included); `trip sync` pulling 5,000
    /// edits; `trip add` on a shared trip
    /// (≤ 10 ms, libpq not loaded).
    static func sharingRows(tripBinary: String, dataDir: String) throws -> [(String, Double, Double?)] {
        _ = try groupRows(tripBinary: tripBinary, dataDir: dataDir, measure: false)
        let template = dataDir + "/group-template-\(schemaTag).sqlite"
        // In the temporary folder, as the tests' clusters are: run as root, the server runs as the
        // `postgres` user, who cannot enter the data folder (mode 0700, the ledgers' owner's).
        let cluster = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/trip-bench-pg-\(getpid())"
        let script = "Tests/Postgres/pg-cluster.sh"
        shell("'\(script)' stop '\(cluster)'")
        guard let port = shellOutput("'\(script)' start '\(cluster)' \(getpid())")?.trimmingSpaces, !port.isEmpty else {
            print("sharing rows skipped: no PostgreSQL (make test-deps installs postgresql-15)")
            return []
        }
        defer {
            shell("'\(script)' stop '\(cluster)'")
            shell("rm -f '\(dataDir)'/shared-*.sqlite* '\(dataDir)'/joined.sqlite*")
        }
        func url(_ role: String, _ db: String) -> String {
            "postgresql://\(role):\(role == "tripadmin" ? "admin" : role)-pw@127.0.0.1:\(port)/\(db)"
        }
        var round = 0
        /// A fresh database with the trip schema; returns its name.
        func freshDatabase() -> String {
            round += 1
            let db = "bench\(round)"
            shell("psql -X -q '\(url("tripadmin", "postgres"))' -c 'CREATE DATABASE \(db)'")
            shell("TRIP_REMOTE='\(url("tripadmin", db))' '\(tripBinary)' remote init")
            return db
        }
        func env(_ ledger: String, _ remote: String) -> [String] {
            ["TRIP_DB=\(ledger)", "TRIP_TODAY=2026-03-10", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent", "TRIP_REMOTE=\(remote)"]
        }
        var rows: [(String, Double, Double?)] = []

        // psql \copy of the trip's CSV export: the reference for moving the trip in bulk. It is
        // timed again just before each share and each join, so that both sides of the comparison
        // run under the same load: this machine's speed drifts from minute to minute, and a
        // reference timed once at the start was compared with runs made under another load.
        let csv = dataDir + "/group-export.csv"
        run(tripBinary, ["export", "--format", "csv", "--trip", "Group"], env(template, ""), stdout: csv)
        let header = shellOutput("head -1 '\(csv)'") ?? ""
        let columns = header.split(separator: ",").map { "\"\($0.trimmingSpaces)\" text" }.joined(separator: ", ")
        let copyFromInput = "\\copy trip_csv FROM STDIN CSV HEADER"
        let copyDB = freshDatabase()
        shell("psql -X -q '\(url("ana", copyDB))' -c 'CREATE TABLE trip_csv (\(columns))'")
        func copyOnce() { shell("psql -X -q '\(url("ana", copyDB))' -c 'TRUNCATE trip_csv' -c '\(copyFromInput)' < '\(csv)'") }
        copyOnce()
        var copies: [Double] = []
        func timeReference() {
            let start = now()
            copyOnce()
            copies.append(now() - start)
        }

        // First share: a fresh server database and a fresh copy of the ledger each time (not timed).
        var shared = ""
        var sharedDB = ""
        let share = timed(
            5,
            prepare: {
                sharedDB = freshDatabase()
                shared = dataDir + "/shared-\(round).sqlite"
                for suffix in ["", "-wal", "-shm"] { unlink(shared + suffix) }
                copyFile(template, shared)
                timeReference()
            }
        ) {
            let status = spawn(tripBinary, ["share", "Group", "--with", "ben"], env(shared, url("ana", sharedDB))).status
            guard status == 0 else { fatalError("trip share failed (\(status))") }
        }
        let fresh = dataDir + "/joined.sqlite"
        let join = timed(
            5,
            prepare: {
                for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
                timeReference()
            }
        ) {
            let status = spawn(tripBinary, ["join", "Group"], env(fresh, url("ben", sharedDB))).status
            guard status == 0 else { fatalError("trip join failed (\(status))") }
        }
        let copy = copies.sorted()[copies.count / 2]
        rows.append(("psql \\copy of the trip's CSV export (reference, median of \(copies.count) beside them)", copy, nil))
        rows.append(("trip share (first, 20,000 purchases, 12 members)", share, copy * 10))
        rows.append(("trip join (same trip, new ledger)", join, copy * 10))
        rows.append(
            (
                "trip sync, nothing to do (connection included)",
                median(20) { run(tripBinary, ["sync", "Group"], env(shared, url("ana", sharedDB))) }, 50
            ))
        rows.append(
            (
                "trip add on a shared trip (20,000 purchases)",
                median(20) { run(tripBinary, ["add", "1200", "--split", "ana=2,ben=1", "--paid-by", "dan"], env(shared, url("ana", sharedDB))) }, 10
            ))
        // A pull of many edits: each change pulled is also placed in the log's order
        // (`noteLogOrder`), so its cost grows with the changes, not the trip. Ana edits 5,000
        // purchases (one UPDATE: the outbox triggers record each) and syncs, untimed; Ben's
        // ledger, joined above, pulls them.
        // Each round appends to the same 5,000 notes, so every round's edits are new.
        let editSQL = dataDir + "/edit-5000.sql"
        let edit =
            "UPDATE purchases SET note = note || '+' WHERE id IN (SELECT id FROM purchases WHERE trip_id = (SELECT id FROM trips WHERE name = 'Group') ORDER BY id LIMIT 5000);\n"
        if let file = fopen(editSQL, "w") {
            fputs(edit, file)
            fclose(file)
        }
        let pull = timed(
            3,
            prepare: {
                shell("sqlite3 '\(shared)' < '\(editSQL)'")
                let status = spawn(tripBinary, ["sync", "Group"], env(shared, url("ana", sharedDB))).status
                guard status == 0 else { fatalError("trip sync (5,000 edits to push) failed (\(status))") }
            }
        ) {
            let status = spawn(tripBinary, ["sync", "Group"], env(fresh, url("ben", sharedDB))).status
            guard status == 0 else { fatalError("trip sync (5,000 edits to pull) failed (\(status))") }
        }
        rows.append(("trip sync pulling 5,000 edits (20,000-purchase trip)", pull, 1_000))
        let trace =
            shellOutput("LD_DEBUG=libs TRIP_DB='\(shared)' TRIP_TODAY=2026-03-10 HOME=/nonexistent '\(tripBinary)' add 5 2>&1 >/dev/null") ?? ""
        print("trip add on a shared trip loads libpq: \(trace.contains("libpq") ? "yes ✗" : "no ✓")")
        return rows
    }

    /// Median wall time of `n` runs of `body` in milliseconds, each after an untimed `prepare`.
    static func timed(_ n: Int, prepare: () -> Void, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<n {
            prepare()
            let start = now()
            body()
            samples.append(now() - start)
        }
        return samples.sorted()[n / 2]
    }

    @discardableResult
    static func shell(_ command: String) -> Int32 { system(command + " >/dev/null 2>&1") }

    static func shellOutput(_ command: String) -> String? {
        guard let pipe = popen(command, "r") else { return nil }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return pclose(pipe) == 0 ? String(decoding: out, as: UTF8.self) : nil
    }
}
