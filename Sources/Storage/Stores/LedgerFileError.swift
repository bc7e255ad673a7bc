import TripCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ledger file that cannot be used as asked: one plain line naming the path and the cause, and
/// the sysexits code for it (66 no input, 73 cannot write, 74 I/O error).
public struct LedgerFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Cause: Equatable, Sendable {
        /// No file there, and the command does not create ledgers.
        case missing
        case isDirectory
        /// The file (or a folder on its path) may not be read.
        case permissionDenied
        /// Not a SQLite database (a device, a text file, a truncated copy).
        case notSQLite
        /// A SQLite database of something else: trip will not add its tables to it.
        case notALedger
        /// A write was refused: the file, or its folder, may not be written.
        case readOnly
        /// The file exists and must not be overwritten (`trip backup`'s target).
        case exists
        /// A new file (`trip backup`'s target) cannot be created there (`strerror` of the cause).
        case cannotCreate(String)
        /// A read or write failed under SQLite (`strerror` of the system error).
        case ioError(String)
    }

    public let path: String
    public let cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    public var exitCode: Int32 {
        switch cause {
        case .missing, .isDirectory, .permissionDenied, .notSQLite, .notALedger: 66
        case .readOnly, .exists, .cannotCreate: 73
        case .ioError: 74
        }
    }

    public var description: String {
        let p = quoted(path)
        switch cause {
        case .missing: return "ledger: no ledger at \(p); create one with `trip init` (or pass the right --db)"
        case .isDirectory: return "ledger: \(p) is a directory, not a ledger file"
        case .permissionDenied: return "ledger: \(p): permission denied"
        case .notSQLite: return "ledger: \(p) is not a SQLite file"
        case .notALedger: return "ledger: \(p) is a SQLite file but not a trip ledger"
        case .readOnly: return "ledger: \(p) is read-only; nothing was written"
        case .exists: return "backup: \(p) already exists; choose a new file name"
        case .cannotCreate(let reason): return "backup: cannot create \(p): \(reason)"
        case .ioError(let reason): return "ledger: \(p): I/O error (\(reason)); nothing was written"
        }
    }

    /// Checks `path` before SQLite opens it, so each way it can be unusable gets its own cause
    /// instead of SQLite's "unable to open database file" or a `disk I/O error` at COMMIT.
    /// Returns whether the file exists and whether this process may write it (else it is opened
    /// read-only). A missing file is an error unless `create`.
    package static func inspect(_ path: String, create: Bool) throws(LedgerFileError) -> (exists: Bool, writable: Bool) {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            if e == ENOENT && create { return (false, true) }
            if e == ENOENT || e == ENOTDIR { throw LedgerFileError(path: path, cause: .missing) }
            if e == EACCES { throw LedgerFileError(path: path, cause: .permissionDenied) }
            throw LedgerFileError(path: path, cause: .ioError(String(cString: strerror(e))))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw LedgerFileError(path: path, cause: .isDirectory) }
        if (st.st_mode & S_IFMT) != S_IFREG { throw LedgerFileError(path: path, cause: .notSQLite) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw LedgerFileError(path: path, cause: errno == EACCES ? .permissionDenied : .ioError(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        // An empty file is an empty SQLite database; anything else starts with the 16-byte magic.
        // Zeros are left to SQLite, which reads under its lock: another trip creating this ledger
        // extends the file with zeros (the memory map's size hint) before it writes the first page,
        // and this read takes no lock. A file that is zeros once SQLite may read it is still refused
        // as not SQLite, by SQLite.
        if st.st_size > 0 {
            var header = [UInt8](repeating: 0, count: 16)
            let n = read(fd, &header, 16)
            let beingCreated = n == 16 && header.allSatisfy { $0 == 0 }
            if !beingCreated && (n != 16 || header != Array("SQLite format 3\0".utf8)) {
                throw LedgerFileError(path: path, cause: .notSQLite)
            }
        }
        // Writing needs the file, and the folder for the -wal and -shm files SQLite creates.
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return (true, access(path, W_OK) == 0 && access(folder, W_OK) == 0)
    }
}

extension LedgerFileError {
    /// The plain cause of a storage error on the ledger file itself (read-only, not SQLite, an I/O
    /// error), or `nil` for any other SQLite error.
    package init?(_ error: SQLiteError, path: String) {
        if error.isDiskFull { return nil }
        switch error.primaryCode {
        case SQLiteBoundary.readOnlyCode: self.init(path: path, cause: .readOnly)
        case SQLiteBoundary.notADatabaseCode: self.init(path: path, cause: .notSQLite)
        case SQLiteBoundary.cantOpenCode:
            self.init(path: path, cause: error.systemErrno == EACCES ? .permissionDenied : .ioError(error.message))
        case SQLiteBoundary.ioErrorCode:
            let reason = error.systemErrno != 0 ? String(cString: strerror(error.systemErrno)) : error.message
            self.init(path: path, cause: .ioError(reason))
        default: return nil
        }
    }
}
