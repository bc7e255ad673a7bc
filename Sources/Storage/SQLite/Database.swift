#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to one SQLite file with `foreign_keys=ON` and a busy timeout, so concurrent commands
/// wait for each other instead of failing with "database is locked". `enableWAL()` completes the
/// setup every trip command uses.
final class Database {
    let connection: SQLiteBoundary.Connection
    let path: String
    private var cache: [String: Statement] = [:]

    /// How long a writer waits for another process's write transaction, in milliseconds.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// The connection cannot write (opened with `readOnly`).
    let isReadOnly: Bool

    /// Opens `path`, creating it (mode 0600) when `create` is true; `readOnly` opens it for reading
    /// only (a ledger file the user may not write).
    init(path: String, create: Bool = true, readOnly: Bool = false) throws(SQLiteError) {
        self.path = path
        self.isReadOnly = readOnly
        // The ledger is private to the user: a new file is created here with mode 0600, and SQLite
        // gives its -wal and -shm files the database file's mode. (Not by setting the umask around
        // the open: the umask is process-wide, so two threads opening ledgers at once could restore
        // each other's and create a file readable by everyone.) EEXIST: it is there already.
        if create && !readOnly && path != ":memory:" {
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        var connection = try SQLiteBoundary.open(path: path, create: create && !readOnly, readOnly: readOnly)
        // Reading a WAL-mode file needs its -shm, which a folder this process cannot write cannot
        // hold. With no -wal there, or an empty one (each command checkpoints at exit and leaves
        // its -wal truncated, see `persistWAL`), the main file holds every commit, so the file is
        // read as immutable instead.
        if readOnly && (try? SQLiteBoundary.exec(connection, "SELECT count(*) FROM sqlite_master")) == nil
            && Database.walIsEmpty(path)
        {
            SQLiteBoundary.close(connection)
            connection = try SQLiteBoundary.open(path: path, create: false, readOnly: true, immutable: true)
        }
        self.connection = connection
        SQLiteBoundary.busyTimeout(connection, milliseconds: Database.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Whether `path` has no -wal file, or an empty one: then the main file holds every commit.
    static func walIsEmpty(_ path: String) -> Bool {
        var st = stat()
        return stat(path + "-wal", &st) != 0 || st.st_size == 0
    }

    /// Switches to the WAL journal with `synchronous=NORMAL` (durable at each checkpoint, never
    /// corrupt). Separate from `init` so that a ledger can be inspected before anything is written.
    func enableWAL() throws(SQLiteError) {
        if isReadOnly {
            // Nothing can be switched on a connection that cannot write; reading still goes
            // through the memory map.
            try execute("PRAGMA mmap_size = 268435456")
            return
        }
        // 8 KiB pages for a new ledger (a no-op once the file has content: an existing ledger keeps
        // its size). Every page SQLite moves between its cache, the WAL and the file is a system
        // call, so 8 KiB shortens the commit (WAL checkpoint) of a large `trip import`
        // against 4 KiB. 16 KiB saved little more there, but every command starts by reading the
        // WAL written since the last checkpoint, and `trip add` writes about five pages, so larger
        // pages made each add measurably slower (`make bench`).
        try execute("PRAGMA page_size = 8192")
        // Reads through a memory map instead of a pread per page: reports scan thousands of pages.
        try execute("PRAGMA mmap_size = 268435456")
        let mode = try switchToWAL()
        if mode?.lowercased() != "wal" && path != ":memory:" {
            throw SQLiteError(code: 1, message: "could not switch to WAL journal (got \(mode ?? "nothing"))", sql: "PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA synchronous = NORMAL")
        // The exit checkpoint keeps the -wal and -shm files for the next command, the -wal emptied
        // (truncation at close needs a limit of at least zero; 64 MiB bounds what a large write
        // transaction leaves behind until then).
        SQLiteBoundary.persistWAL(connection)
        try execute("PRAGMA journal_size_limit = 67108864")
        // Up to 64 MiB of page cache (allocated only as used), so that a large write transaction
        // (re-rating a long trip, an import) does not spill dirty pages mid-transaction.
        try execute("PRAGMA cache_size = -65536")
    }

    /// `PRAGMA journal_mode = WAL`, retried every 5 ms for up to the busy timeout while another
    /// process holds a lock. Leaving the rollback journal needs an exclusive lock, and SQLite asks
    /// for it once without calling the busy handler: without the retry, the first commands on a new
    /// ledger, started together, fail with "database is locked". A ledger already in WAL mode
    /// answers at once.
    private func switchToWAL() throws(SQLiteError) -> String? {
        var waited: Int32 = 0
        while true {
            do {
                return try scalarText("PRAGMA journal_mode = WAL")
            } catch  where error.isBusy && waited < Database.busyTimeoutMilliseconds {
                usleep(5_000)
                waited += 5
            }
        }
    }

    deinit {
        cache.removeAll()
        SQLiteBoundary.close(connection)
    }

    /// Runs SQL with no parameters and no rows (DDL, PRAGMA, migrations).
    func execute(_ sql: String) throws(SQLiteError) {
        try SQLiteBoundary.exec(connection, sql)
    }

    /// A prepared statement, cached by SQL text for reuse within this connection.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let s = cache[sql] { return s }
        let s = try Statement(db: self, sql: sql)
        cache[sql] = s
        return s
    }

    /// Runs one statement with bound values.
    func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        try prepare(sql).run(values)
    }

    /// The first column of the first row, or `nil`.
    func scalarInt(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        let s = try prepare(sql).bind(values)
        defer { SQLiteBoundary.reset(s.handle) }
        return try s.step() ? s.optionalInt(0) : nil
    }

    /// The first column of the first row, or `nil`.
    func scalarText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        let s = try prepare(sql).bind(values)
        defer { SQLiteBoundary.reset(s.handle) }
        return try s.step() ? s.optionalText(0) : nil
    }

    var changes: Int { SQLiteBoundary.changes(connection) }
    var lastInsertRowID: Int64 { SQLiteBoundary.lastInsertRowID(connection) }

    /// For a long read that streams out (export): no memory map and a 2 MiB page cache, so
    /// resident memory stays flat however large the ledger is.
    func preferStreaming() throws(SQLiteError) {
        try execute("PRAGMA mmap_size = 0")
        try execute("PRAGMA cache_size = -2000")
    }

    private var transactionDepth = 0

    /// Facts a store learned inside the outermost transaction now open, such as "this table is
    /// empty". That transaction holds the write lock (`BEGIN IMMEDIATE`), so no other connection
    /// changes them meanwhile; the store that wrote them keeps them true for its own writes. They
    /// are forgotten when the transaction ends and at a rollback to a savepoint, which can bring
    /// back rows deleted after one was learned. Empty outside a transaction.
    var transactionFacts: Set<String> = []

    /// Whether a transaction (`transaction`) is open.
    var inTransaction: Bool { transactionDepth > 0 }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed if it returns, rolled back if
    /// it throws. IMMEDIATE takes the write lock up front, so the busy timeout applies at BEGIN
    /// rather than failing halfway through. Nested calls become savepoints of the outer transaction; they share one name, which SQLite
    /// resolves to the innermost savepoint of that name.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        try execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT nested")
        transactionDepth += 1
        defer {
            transactionDepth -= 1
            if transactionDepth == 0 { transactionFacts = [] }
        }
        do {
            let result = try body()
            try execute(depth == 0 ? "COMMIT" : "RELEASE nested")
            return result
        } catch {
            transactionFacts = []
            if depth == 0 {
                try? execute("ROLLBACK")
            } else {
                try? execute("ROLLBACK TO nested")
                try? execute("RELEASE nested")
            }
            throw error
        }
    }
}
