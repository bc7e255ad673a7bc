#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TripCore

/// An open ledger: the SQLite file, the effective settings and the clock of this command.
///
/// Every command opens one, calls one operation (each operation's writes are one transaction) and
/// renders the result.
public final class Ledger {
    public let db: Database
    public let settings: Settings
    public let clock: Clock

    /// Opens the ledger at `path`, creating its folder (mode 0700) and file (0600) if needed, and
    /// migrates it. A ledger written by a newer trip is refused and left as it was.
    public init(path: String, settings: Settings, clock: Clock) throws {
        self.settings = settings
        // Every date a command reads goes through this clock, so it reads slash dates the configured way.
        var clock = clock
        clock.dateOrder = clock.dateOrder ?? settings.dateOrder.value
        self.clock = clock
        try Ledger.makeParentFolder(of: path)
        do {
            db = try Database(path: path)
            _ = try Migrator.version(of: db)        // fails here for a file that is not SQLite
        } catch {
            throw TripError.storage("ledger: cannot open \(quoted(path)): \(error.message)")
        }
        if try Migrator.version(of: db) > Migrator.latestVersion {
            throw TripError.newerLedger(path: path, version: try Migrator.version(of: db), known: Migrator.latestVersion)
        }
        try db.enableWAL()
        try Migrator.migrate(db, now: clock.now)
    }

    /// `--db`, else `TRIP_DB`, else `$XDG_DATA_HOME/trip/ledger.sqlite` (`~/.local/share/...`).
    public static func defaultPath(flag: String?, environment env: [String: String]) -> (path: String, source: String) {
        if let flag, !flag.isEmpty { return (flag, "--db") }
        if let p = env["TRIP_DB"], !p.isEmpty { return (p, "TRIP_DB") }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? ".") + "/.local/share")
        return (data + "/trip/ledger.sqlite", env["XDG_DATA_HOME"] == nil ? "default (~/.local/share)" : "default ($XDG_DATA_HOME)")
    }

    static func makeParentFolder(of path: String) throws {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var st = stat()
        if stat(folder, &st) == 0 { return }
        try makeParentFolder(of: folder)
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw TripError.storage("ledger: cannot create folder \(quoted(folder)): \(String(cString: strerror(errno)))")
        }
    }

    // MARK: ledger-wide settings

    func ledgerSetting(_ key: String) throws -> String? {
        try db.scalarText("SELECT value FROM ledger_settings WHERE key = ?", [.text(key)])
    }

    func setLedgerSetting(_ key: String, _ value: String?) throws {
        if let value {
            try db.run("INSERT INTO ledger_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM ledger_settings WHERE key = ?", [.text(key)])
        }
    }

    /// The home currency for new trips: `trip init --home`, else the config's `home_currency`.
    public func defaultHome() throws -> (currency: Currency, source: String) {
        if let code = try ledgerSetting("home_currency"), let c = CurrencyTable.shared.lookup(code) {
            return (c, "ledger (trip init --home)")
        }
        return (settings.homeCurrency.value, settings.homeCurrency.source)
    }

    /// `trip init [--home CUR]`: creates the ledger (already done by opening it) and records the
    /// default home currency.
    public func initialize(home: String?) throws -> Currency {
        if let home {
            let c = try CurrencyTable.shared.currency(for: home)
            try db.transaction { try setLedgerSetting("home_currency", c.code) }
            return c
        }
        return try defaultHome().currency
    }
}
