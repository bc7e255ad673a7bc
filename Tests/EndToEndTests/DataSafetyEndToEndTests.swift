import Foundation
import TestSupport
import Testing

/// Issue 10, "Data that can be lost", through the built binary: the ledger file alone is a whole
/// copy, `trip backup` while another process writes, commands that must not create ledgers, and
/// storage errors as one plain line with a sysexits code.
@Suite("End to end: data safety")
struct DataSafetyEndToEndTests {
    /// A ledger with a trip and `count` purchases of ¥1,200.
    func ledger(in folder: TemporaryFolder, purchases count: Int) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        for _ in 0..<count { try #require(trip.run("add", "1200", "ramen").exitCode == 0) }
        return trip
    }

    // MARK: ids are never reused; rm goes to a trash

    @Test func removedIdsAreNeverHandedOutAgainAndRestoreBringsThePurchaseBack() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 0)
        for note in ["gyoza", "ramen", "sushi"] { try #require(trip.run("add", "1200", note).exitCode == 0) }
        let removed = try trip.run("rm", "3")
        #expect(removed.exitCode == 0, "\(removed.stderr)")
        let next = try trip.run("add", "800", "udon", "--format", "json")
        #expect(next.json["id"] as? Int == 4)
        // The same `trip rm 3` again, from shell history: nothing else is deleted.
        let again = try trip.run("rm", "3")
        #expect(again.exitCode == 65)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 3)

        let restored = try trip.run("restore", "3", "--format", "json")
        #expect(restored.exitCode == 0, "\(restored.stderr)")
        let p = restored.json["restored"] as? [String: Any]
        #expect(p?["id"] as? Int == 3)
        #expect(p?["note"] as? String == "sushi")
        #expect(p?["home_amount"] as? String == "8.04")
        #expect(try trip.run("restore", "3").exitCode == 65)

        // An import after the newest purchase was removed numbers its rows past it.
        try #require(trip.run("rm", "4").exitCode == 0)
        let csv = folder.file("more.csv")
        try Data("date,amount,currency,note\n2026-03-02,100,JPY,tea\n".utf8).write(to: URL(fileURLWithPath: csv))
        let imported = try trip.run(
            "import", csv, "--trip", "Japan", "--date-column", "date", "--amount-column", "amount",
            "--currency-column", "currency", "--note-column", "note")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT max(id) FROM purchases") == 5)

        // Trips too: a deleted trip's id is not given to the next one.
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        try #require(trip.run("delete", "Korea", "--yes").exitCode == 0)
        try #require(trip.run("new", "Taiwan", "--currency", "TWD").exitCode == 0)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT id FROM trips WHERE name = 'Taiwan'") == 3)
    }

    // MARK: the ledger file alone

    @Test func copyingTheLedgerFileAloneKeepsEveryPurchase() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 27)
        // What `cp ledger.sqlite backup.sqlite` copies: the main file, not its -wal.
        let copy = folder.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: trip.ledgerPath, toPath: copy)
        let list = try TripProcess(ledgerPath: copy).run("list", "--trip", "Japan", "--format", "json")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect((list.json["purchases"] as? [Any])?.count == 27)
        #expect(try LedgerInspection.count(copy, "SELECT count(*) FROM purchases") == 27)
    }

    /// Each command leaves the -wal beside the ledger empty, and the next one writes into that same
    /// file rather than deleting and creating it (`trip add`'s speed: see README "Backups").
    @Test func theEmptiedWALIsKeptForTheNextCommand() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 1)
        func wal() -> (size: Int64, inode: UInt64)? {
            var st = stat()
            guard stat(trip.ledgerPath + "-wal", &st) == 0 else { return nil }
            return (Int64(st.st_size), UInt64(st.st_ino))
        }
        let first = try #require(wal())
        #expect(first.size == 0)
        try #require(trip.run("add", "800", "tea").exitCode == 0)
        let second = try #require(wal())
        #expect(second.size == 0)
        #expect(second.inode == first.inode)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 2)
    }

    @Test func backupWritesAConsistentCopyWhileAnotherProcessWrites() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 1)
        let writes = 120
        let writer = try SpawnedProcess(
            "/bin/sh", ["-c", "for i in $(seq \(writes)); do \"$0\" add 1200 ramen >/dev/null || exit 1; done", TripProcess.binary],
            environment: trip.environment, stderr: folder.file("writer.err"))
        var counts: [Int] = []
        var n = 0
        while writer.isRunning || counts.isEmpty {
            n += 1
            let target = folder.file("backups/b\(n).sqlite")
            let r = try trip.run("backup", target)
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(try LedgerInspection.integrity(target) == "ok")
            #expect(LedgerInspection.mode(target) == 0o600)
            counts.append(try LedgerInspection.count(target, "SELECT count(*) FROM purchases"))
        }
        #expect(writer.wait().exitCode == 0, "\(String(describing: try? String(contentsOfFile: folder.file("writer.err"), encoding: .utf8)))")
        #expect(counts == counts.sorted())
        #expect(counts.count >= 2, "the writer finished before a second backup: \(counts)")
        let last = folder.file("backups/last.sqlite")
        #expect(try trip.run("backup", last).exitCode == 0)
        #expect(try LedgerInspection.count(last, "SELECT count(*) FROM purchases") == writes + 1)
        // The copy is a ledger trip reads like any other.
        let report = try TripProcess(ledgerPath: last).run("report", "Japan", "--format", "json")
        #expect(report.exitCode == 0, "\(report.stderr)")
    }

    @Test func backupNeverOverwritesAFile() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 1)
        let target = folder.file("existing.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let r = try trip.run("backup", target)
        #expect(r.exitCode == 73)
        #expect(r.stderr == "trip: backup: \"\(target)\" already exists; choose a new file name\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
        let nowhere = try trip.run("backup", "/proc/no-such/copy.sqlite")
        #expect(nowhere.exitCode == 73, "\(nowhere.stderr)")
        #expect(nowhere.stderr.hasPrefix("trip: backup: cannot create \"/proc/no-such/copy.sqlite\": "))
    }

    // MARK: only the creating commands create

    @Test func readingAMissingLedgerCreatesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("new/place.sqlite")
        let trip = TripProcess(ledgerPath: path)
        for args in [["report"], ["add", "12", "USD"], ["list"], ["trips"], ["rm", "1"], ["backup", folder.file("b.sqlite")]] {
            let r = try trip.run(args)
            #expect(r.exitCode == 66, "\(args): \(r.stderr)")
            #expect(r.stderr == "trip: ledger: no ledger at \"\(path)\"; create one with `trip init` (or pass the right --db)\n")
            #expect(!FileManager.default.fileExists(atPath: folder.file("new")), "\(args) created the folder")
            #expect(!FileManager.default.fileExists(atPath: folder.file("b.sqlite")))
        }
        #expect(try trip.run("init").exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func addWithNoTripOnAMissingLedgerLeavesNoFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("ledger.sqlite")
        let r = try TripProcess(ledgerPath: path).run("add", "12", "USD")
        #expect(r.exitCode == 66)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anEmptyLedgerPathIsAnError() throws {
        let folder = TemporaryFolder()
        // HOME is where the default ledger would go: nothing may appear there.
        var trip = TripProcess(ledgerPath: "", extra: ["HOME": folder.path])
        let fromEnvironment = try trip.run("init")
        #expect(fromEnvironment.exitCode == 64)
        #expect(fromEnvironment.stderr == "trip: TRIP_DB: the ledger path is empty\n")
        trip.environment["TRIP_DB"] = nil
        let fromFlag = try trip.run("add", "12", "USD", "--db", "")
        #expect(fromFlag.exitCode == 64)
        #expect(fromFlag.stderr == "trip: --db: the ledger path is empty\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".local")))
    }

    // MARK: storage errors

    @Test func unusableLedgerFilesGetOnePlainLine() throws {
        let folder = TemporaryFolder()
        let text = folder.file("notes.txt")
        try Data("not a ledger\n".utf8).write(to: URL(fileURLWithPath: text))
        let cases: [(path: String, message: String)] = [
            (folder.path, "\"\(folder.path)\" is a directory, not a ledger file"),
            ("/dev/null", "\"/dev/null\" is not a SQLite file"),
            (text, "\"\(text)\" is not a SQLite file"),
        ]
        for c in cases {
            for args in [["add", "12", "USD"], ["report"], ["init"]] {
                let r = try TripProcess(ledgerPath: c.path).run(args)
                #expect(r.exitCode == 66, "\(c.path) \(args): \(r.stderr)")
                #expect(r.stderr == "trip: ledger: \(c.message)\n", "\(args)")
            }
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "not a ledger\n")
    }

    @Test func aSQLiteFileOfSomethingElseIsNotTouched() throws {
        let folder = TemporaryFolder()
        let other = folder.file("other.sqlite")
        // A SQLite file with a table of its own and no trip schema: user_version 0.
        try LedgerInspection.execute(other, "CREATE TABLE notes (body TEXT)")
        let r = try TripProcess(ledgerPath: other).run("list")
        #expect(r.exitCode == 66)
        #expect(r.stderr == "trip: ledger: \"\(other)\" is a SQLite file but not a trip ledger\n")
        #expect(try LedgerInspection.count(other, "SELECT count(*) FROM sqlite_master") == 1)
    }

    /// A user who may read but not write the ledger (run as `nobody` under root, where file modes
    /// do not bind): reading commands work, a write is refused plainly with 73 and changes nothing.
    @Test func aReadOnlyLedgerReadsAndRefusesWrites() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(in: folder, purchases: 2)
        chmod(folder.path, 0o755)
        chmod(trip.ledgerPath, 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: trip.ledgerPath))
        let list = try runAsOtherUser(trip, ["list", "--trip", "Japan", "--format", "json"])
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect((list.json["purchases"] as? [Any])?.count == 2)
        #expect(try runAsOtherUser(trip, ["report", "Japan"]).exitCode == 0)
        let add = try runAsOtherUser(trip, ["add", "5", "JPY", "--trip", "Japan"])
        #expect(add.exitCode == 73)
        #expect(add.stderr.hasPrefix("trip: ledger: \""))
        #expect(add.stderr.hasSuffix("ledger.sqlite\" is read-only; nothing was written\n"))
        #expect(!add.stderr.contains("SQLite"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: trip.ledgerPath)) == before)
        // In a folder the user may write, SQLite keeps its -shm there; reading works the same.
        chmod(folder.path, 0o777)
        #expect(try runAsOtherUser(trip, ["list", "--trip", "Japan"]).exitCode == 0)
        #expect(try runAsOtherUser(trip, ["add", "5", "JPY", "--trip", "Japan"]).exitCode == 73)
        // A backup only reads the ledger.
        let backup = try runAsOtherUser(trip, ["backup", folder.file("copy.sqlite")])
        #expect(backup.exitCode == 0, "\(backup.stderr)")
        #expect(try LedgerInspection.count(folder.file("copy.sqlite"), "SELECT count(*) FROM purchases") == 2)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 2)

        chmod(trip.ledgerPath, 0o600)
        let denied = try runAsOtherUser(trip, ["list"])
        #expect(denied.exitCode == 66)
        #expect(denied.stderr == "trip: ledger: \"\(trip.ledgerPath)\": permission denied\n")
    }

    /// Runs `trip` as user `nobody` when the tests run as root (file modes do not bind root), else
    /// as this user.
    func runAsOtherUser(_ trip: TripProcess, _ args: [String]) throws -> (exitCode: Int32, stderr: String, json: [String: Any]) {
        let executable = getuid() == 0 ? "/usr/bin/setpriv" : TripProcess.binary
        let prefix = getuid() == 0 ? ["--reuid=65534", "--regid=65534", "--clear-groups", TripProcess.binary] : []
        let r = try spawnAndWait(executable, (prefix + args).map { Array($0.utf8) }, environment: trip.environment, stdin: nil)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout))) as? [String: Any] ?? [:]
        return (r.exitCode ?? 128 + (r.signal ?? 0), String(decoding: r.stderr, as: UTF8.self), json)
    }
}
