import Storage
import TripCore
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open ledger: the SQLite file, the effective settings and the clock of this command.
///
/// Every command opens one, calls one operation (each operation's writes are one transaction) and
/// renders the result.
public final class Ledger {
    /// The SQLite file; only the stores (`Stores/`) see it.
    package let database: LedgerDatabase
    public let settings: Settings
    public let clock: Clock

    /// Opens the ledger at `path` and migrates it. With `create`, a missing ledger is created
    /// (its folder mode 0700, its file 0600); without, a missing one is an error (exit 66) and
    /// nothing is created. A file this process may not write is opened read-only: reading works,
    /// a write fails as `LedgerFileError.readOnly`. A ledger written by a newer trip is refused and
    /// left as it was.
    public init(path: String, settings: Settings, clock: Clock, create: Bool = true) throws {
        self.settings = settings
        // Every date a command reads goes through this clock, so it reads slash dates the configured way.
        var clock = clock
        clock.dateOrder = clock.dateOrder ?? settings.dateOrder.value
        self.clock = clock
        let file = try LedgerFileError.inspect(path, create: create)
        if !file.exists { try Ledger.makeParentFolder(of: path) }
        database = try LedgerDatabase.open(path: path, exists: file.exists, writable: file.writable, create: create, now: clock.now)
    }

    /// The ledger file's path, as opened.
    public var path: String { database.path }

    /// Runs `body`'s ledger operations as one transaction: all of their writes, or none, committed
    /// once. Each operation is already atomic on its own; this is for a caller that makes many
    /// (re-rating every trip after a rates sync, generating a benchmark ledger).
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    /// Folds the WAL into the ledger file and empties it, as a command does at exit; with
    /// `analyze`, first refreshes the query planner's statistics (after a bulk load).
    public func checkpoint(analyze: Bool = false) throws {
        try database.checkpoint(analyze: analyze)
    }

    /// The plain cause of a storage error on the ledger file itself (read-only, not SQLite, an I/O
    /// error), or `nil` for any other SQLite error.
    public static func fileError(_ error: SQLiteError, path: String) -> LedgerFileError? {
        LedgerFileError(error, path: path)
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

    func ledgerSetting(_ key: String) throws -> String? { try settingsStore.value(key) }

    func setLedgerSetting(_ key: String, _ value: String?) throws { try settingsStore.set(key, value) }

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
            try transaction { try setLedgerSetting("home_currency", c.code) }
            return c
        }
        return try defaultHome().currency
    }
}
