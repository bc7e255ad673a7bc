import TripModel

/// The `ledger_settings` table's SQL: the settings kept in the ledger itself (the current trip,
/// `trip init --home`, this device's id), by key.
package struct SettingsStore {
    let db: Database

    package func value(_ key: String) throws -> String? {
        try db.scalarText("SELECT value FROM ledger_settings WHERE key = ?", [.text(key)])
    }

    /// Sets `key` to `value`, or removes it (nil).
    package func set(_ key: String, _ value: String?) throws {
        if let value {
            try db.run(
                "INSERT INTO ledger_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM ledger_settings WHERE key = ?", [.text(key)])
        }
    }
}
