import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

/// A full disk, simulated where no small file system can be mounted: `PRAGMA max_page_count` makes
/// SQLite fail with `SQLITE_FULL` exactly as a full disk does. The end-to-end version on a real
/// 1 MB tmpfs is `EndToEndTests/Hardening/DiskFullEndToEndTests.swift`.
@Suite("Disk full: max_page_count")
struct DiskFullLedgerTests {
    static func csv(rows count: Int) -> String {
        // The 30 columns of a file written before refunds: it still imports.
        var text = PurchaseCSV.columns.prefix(30).joined(separator: ",") + "\r\n"
        for i in 1...count {
            let p = "\(4 + i / 100).\(i % 100 < 10 ? "0" : "")\(i % 100)"
            text +=
                "\(i),Alps,2026-03-01,coffee \(i),food,,USD,\(p),\(p),0.00,,0.00,,0.00,,false,0.00,,\(p),half-up,,1,2026-03-01,identity,,,false,USD,\(p),\r\n"
        }
        return text
    }

    @Test func importIntoAFullLedgerWritesNothingAndWorksOnceThereIsRoom() throws {
        let t = try TestLedger()
        try t.ledger.createTrip(NewTrip(name: "Alps", localCurrency: "USD", homeCurrency: "USD"))
        let file = t.folder.file("rows.csv")
        try Self.csv(rows: 5_000).write(toFile: file, atomically: true, encoding: .utf8)
        let pages = try #require(try t.ledger.database.db.scalarInt("PRAGMA page_count"))
        _ = try t.ledger.database.db.scalarInt("PRAGMA max_page_count = \(pages + 10)")
        let before = try dumpLedger(t.path)

        do {
            _ = try t.ledger.importPurchases(path: file, options: ImportOptions(trip: nil, statement: nil))
            Issue.record("the import fitted in 10 pages")
        } catch let error as SQLiteError {
            #expect(error.isDiskFull, "\(error)")
            #expect(error.primaryCode == 13)
            #expect(error.path?.hasSuffix("/ledger.sqlite") == true, "\(error.path ?? "no path")")
        }
        #expect(try dumpLedger(t.path) == before)
        #expect(try LedgerInspection.integrity(t.path) == "ok")

        // Room again (as after freeing space): the same connection imports every row.
        _ = try t.ledger.database.db.scalarInt("PRAGMA max_page_count = 1073741823")
        let result = try t.ledger.importPurchases(path: file, options: ImportOptions(trip: nil, statement: nil))
        #expect(result.imported == 5_000)
        #expect(try LedgerInspection.count(t.path, "SELECT count(*) FROM purchases") == 5_000)
    }

    @Test(arguments: [
        (Int32(13), Int32(0), true),  // SQLITE_FULL
        (Int32(13 | (1 << 8)), Int32(0), true),
        (Int32(10 | (3 << 8)), ENOSPC, true),  // SQLITE_IOERR_WRITE from ENOSPC
        (Int32(10 | (19 << 8)), EDQUOT, true),  // SQLITE_IOERR_SHMSIZE over quota
        (Int32(10 | (3 << 8)), EIO, false),
        (Int32(5), ENOSPC, false),  // SQLITE_BUSY is not a full disk
    ])
    func diskFullIsFullOrAnOutOfSpaceIOError(code: Int32, systemErrno: Int32, isDiskFull: Bool) {
        #expect(SQLiteError(code: code, message: "x", sql: nil, systemErrno: systemErrno).isDiskFull == isDiskFull)
    }
}
