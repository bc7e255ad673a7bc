import Foundation
import TestSupport
import Testing

/// The ledger is private whatever the user's umask: its folder 0700, the file and its -wal and -shm
/// companions 0600, including companions created again by a later write.
@Suite("Hardening: ledger file permissions")
struct FilePermissionTests {
    /// Starts `trip args…` under `umask 000`, the most permissive a user could have.
    static func startWithOpenUmask(_ trip: TripProcess, _ args: String) throws -> SpawnedProcess {
        try SpawnedProcess(
            "/bin/sh", ["-c", "umask 000; exec \"$TRIP\" \(args)"],
            environment: trip.environment.merging(["TRIP": TripProcess.binary]) { $1 })
    }

    @Test func folderFileWALAndSHMArePrivateUnderAnOpenUmask() throws {
        let folder = TemporaryFolder("trip-perms")
        let path = folder.file("data/trip/ledger.sqlite")
        let trip = TripProcess(ledgerPath: path)
        let new = try Self.startWithOpenUmask(trip, "new Japan --currency USD --home USD")
        #expect(new.wait().exitCode == 0)
        #expect(LedgerInspection.mode(folder.file("data")) == 0o700)
        #expect(LedgerInspection.mode(folder.file("data/trip")) == 0o700)
        #expect(LedgerInspection.mode(path) == 0o600)

        // The -wal and -shm files exist while a command runs (its close empties the -wal and keeps both): watch a
        // long write for them.
        let csv = folder.file("rows.csv")
        try CrashSafetyTests.usdCSV(rows: 5_000).write(toFile: csv, atomically: false, encoding: .utf8)
        let importing = try Self.startWithOpenUmask(trip, "import \"\(csv)\"")
        var wal: Int?, shm: Int?
        while importing.isRunning && (wal == nil || shm == nil) {
            wal = wal ?? LedgerInspection.mode(path + "-wal")
            shm = shm ?? LedgerInspection.mode(path + "-shm")
            usleep(200)
        }
        #expect(importing.wait().exitCode == 0)
        #expect(wal == 0o600)
        #expect(shm == 0o600)
        #expect(LedgerInspection.mode(path) == 0o600)
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM purchases") == 5_000)
    }
}
