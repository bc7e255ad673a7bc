import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-level output and exit, written with `write(2)` so no shared `FILE*` is touched.
enum ProcessExit {
    /// Writes `line` and a newline to standard error. Control and format characters in `line`
    /// (an unknown option's name echoed by the argument parser, say) are escaped like every other
    /// echo of user text (`TextFormat.safe`), so the message stays one line and cannot drive the terminal.
    static func printError(_ line: String) {
        let text = TextFormat.safe(line) + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Reports a SQLite failure that reached `main` as one line and exits 70 (internal/storage, as
    /// documented in the README). The transaction it happened in was rolled back, so the line says
    /// nothing was written. A full disk names the ledger file: freeing space is the whole remedy.
    /// A read-only ledger, a file that is not SQLite or an I/O error gets its plain cause and its
    /// own code instead (`LedgerFileError`: 66, 73 or 74).
    static func ledgerFailure(_ error: SQLiteError) -> Never {
        if let path = error.path, let fileError = Ledger.fileError(error, path: path) { ledgerFileFailure(fileError) }
        let line: String
        if error.isDiskFull {
            line = "trip: disk full: \(error.path.map(quoted) ?? "the ledger's disk"): nothing was written; free some space and run the command again"
        } else if error.isBusy {
            line = "trip: ledger: the ledger is busy in another trip command; nothing was written"
        } else {
            line = "trip: ledger: \(error.description)"
        }
        printError(line)
        exit(70)
    }

    /// Reports a ledger file that cannot be used (missing, read-only, not a ledger…) as one line.
    static func ledgerFileFailure(_ error: LedgerFileError) -> Never {
        printError("trip: \(error.description)")
        exit(error.exitCode)
    }

    static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code)
        #else
        Darwin.exit(code)
        #endif
    }
}
