import Foundation
import Rendering
import TripLedger
import TripModel

@testable import Storage

/// Direct edits of a ledger file that tests use to set up unusual states.
public enum Ledgers {
    /// Raises `PRAGMA user_version` by `by`, checkpoints, and returns the file's bytes afterwards.
    public static func bumpVersion(_ path: String, by: Int) throws -> Data {
        do {
            let db = try Database(path: path, create: false)
            let v = try db.scalarInt("PRAGMA user_version") ?? 0
            try db.execute("PRAGMA user_version = \(v + Int64(by))")
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
