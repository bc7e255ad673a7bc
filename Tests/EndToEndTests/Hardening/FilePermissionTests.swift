import Foundation
import Testing
import TestSupport

/// The ledger is private whatever the user's umask: its folder 0700, the file and its -wal and -shm
/// companions 0600, including companions created again by a later write.
@Suite("Hardening: ledger file permissions")
struct FilePermissionTests {
    /// Runs `trip args…` under `umask 000`, the most permissive a user could have.
    static func runWithOpenUmask(_ trip: TripProcess, _ args: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "umask 000; exec \"$TRIP\" \(args)"]
        p.environment = trip.environment.merging(["TRIP": TripProcess.binary]) { $1 }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test func folderFileWALAndSHMArePrivateUnderAnOpenUmask() throws {
        let folder = TemporaryFolder("trip-perms")
        let path = folder.file("data/trip/ledger.sqlite")
        let trip = TripProcess(ledgerPath: path)
        #expect(try Self.runWithOpenUmask(trip, "new Lisbon --currency EUR --home EUR") == 0)
        #expect(try Self.runWithOpenUmask(trip, "add 3.20 --note bica") == 0)
        #expect(LedgerInspection.mode(folder.file("data")) == 0o700)
        #expect(LedgerInspection.mode(folder.file("data/trip")) == 0o700)
        #expect(LedgerInspection.mode(path) == 0o600)
        #expect(LedgerInspection.mode(path + "-wal") == 0o600)
        #expect(LedgerInspection.mode(path + "-shm") == 0o600)

        // Closing the last connection checkpoints and removes -wal and -shm; the next write
        // creates them again, still private.
        try LedgerInspection.checkpoint(path)
        #expect(LedgerInspection.mode(path + "-wal") == nil)
        #expect(try Self.runWithOpenUmask(trip, "add 1.10 --note pastel") == 0)
        #expect(LedgerInspection.mode(path + "-wal") == 0o600)
        #expect(LedgerInspection.mode(path + "-shm") == 0o600)
        #expect(LedgerInspection.mode(path) == 0o600)
        #expect(try LedgerInspection.count(path, "SELECT count(*) FROM purchases") == 2)
    }
}
