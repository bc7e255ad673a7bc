import Foundation
import Rendering
import TripCore
import TripLedger
import TripModel

@testable import Storage

/// A real ledger on a real SQLite file in its own temporary folder, with "today" pinned.
public struct TestLedger {
    public let folder: TemporaryFolder
    public let ledger: Ledger
    public var path: String { folder.file("ledger.sqlite") }

    public init(today: String = "2026-03-02", userConfig: String? = nil) throws {
        folder = TemporaryFolder()
        var settings = try Settings.defaults()
        if let userConfig { try settings.apply(ConfigFile(origin: "test-config.toml", text: userConfig)) }
        let day = CivilDate(iso: today)!
        ledger = try Ledger(
            path: folder.file("ledger.sqlite"), settings: settings,
            clock: Clock(today: day, now: "\(today)T12:00:00Z"))
    }
}

/// Every row of every table, as text, for "nothing changed" comparisons. Leaves out `sync_state`:
/// its device id is each ledger's own and its clock only ticks.
public func dumpLedger(_ path: String) throws -> String {
    let db = try Database(path: path, create: false)
    var out: [String] = []
    var tables: [String] = []
    try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sync_state' ORDER BY name").forEach {
        tables.append($0.text(0))
    }
    for table in tables {
        out.append("## \(table)")
        // Table names come from sqlite_master, not from input.
        let s = try db.prepare("SELECT * FROM \"\(table)\" ORDER BY 1")
        try s.forEach { row in
            var cells: [String] = []
            for i in 0..<row.columnCount {
                cells.append(row.isNull(i) ? "NULL" : row.text(i))
            }
            out.append(cells.joined(separator: "|"))
        }
    }
    return out.joined(separator: "\n")
}
