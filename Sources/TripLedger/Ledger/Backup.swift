import Storage
import TripCore
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Ledger {
    /// `trip backup FILE`: writes a consistent copy of the ledger to a new file `target` (mode
    /// 0600), a single self-contained SQLite file.
    ///
    /// `VACUUM INTO` reads the whole ledger in one read transaction, so the copy is the ledger as
    /// of one commit even while other trip processes write (they are not blocked: WAL readers and
    /// writers do not wait for each other). An existing `target` is never overwritten; a failed
    /// backup leaves no file behind.
    public func backup(to target: String) throws -> String {
        if target.isEmpty { throw TripError.usage("backup: the target path is empty") }
        do {
            try Ledger.makeParentFolder(of: target)
        } catch {
            throw LedgerFileError(path: target, cause: .cannotCreate("its folder cannot be created (\(String(cString: strerror(errno))))"))
        }
        // Created here, empty and private, so the copy is never readable by others; VACUUM INTO
        // writes into an empty file and refuses a non-empty one.
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            let e = errno
            throw LedgerFileError(path: target, cause: e == EEXIST ? .exists : .cannotCreate(String(cString: strerror(e))))
        }
        close(fd)
        do {
            try database.copy(into: target)
        } catch  where !error.isDiskFull {
            unlink(target)
            // The ledger was only read: a failure here is writing the copy.
            throw LedgerFileError(path: target, cause: .cannotCreate(error.message))
        } catch {
            unlink(target)
            throw error
        }
        return target
    }
}
