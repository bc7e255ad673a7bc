import Foundation
import Rendering
import TestSupport
import Testing
import TripModel

@testable import Exchange
@testable import TripLedger

@Suite("WALWriteback")
struct WALWritebackTests {
    /// Descriptors of this process open on the file at `path` (same inode; only this test's files,
    /// as tests run in parallel).
    static func descriptors(on path: String) throws -> Int {
        var target = stat()
        try #require(stat(path, &target) == 0)
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            var s = stat()
            return stat("/proc/self/fd/" + fd, &s) == 0 && s.st_dev == target.st_dev && s.st_ino == target.st_ino
        }.count
    }

    /// It flushes while running, and `stop()` ends its thread and closes its descriptor, even when
    /// called twice; a ledger without a WAL file gets none.
    @Test(.enabled(if: ImportPipeline.isAvailable))
    func stopsAndClosesItsDescriptor() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "JPY", homeCurrency: "USD"))
        #expect(FileManager.default.fileExists(atPath: t.path + "-wal"))
        let wal = t.path + "-wal"
        let before = try Self.descriptors(on: wal)
        let writeback = try #require(WALWriteback(databasePath: t.path, intervalMilliseconds: 5))
        #expect(try Self.descriptors(on: wal) == before + 1)
        // Two successful flushes: the one at start and one after an interval, so it flushes again
        // while running. The deadline only keeps a broken writeback from hanging the test; it is
        // not a speed claim.
        let deadline = ContinuousClock.now + .seconds(60)
        while writeback.flushes < 2 && ContinuousClock.now < deadline { usleep(1_000) }
        #expect(writeback.flushes >= 2, "the WAL was flushed while the writeback ran")
        writeback.stop()
        writeback.stop()
        let flushed = writeback.flushes
        #expect(try Self.descriptors(on: wal) == before)
        // Stopped means stopped: no flush after `stop()` returned (its thread is joined).
        usleep(20_000)
        #expect(writeback.flushes == flushed)
        #expect(WALWriteback(databasePath: t.folder.file("no-such-ledger.sqlite")) == nil)
    }
}
