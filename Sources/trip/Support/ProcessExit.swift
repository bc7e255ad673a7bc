#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TripLedger

/// Process-level output and exit, written with `write(2)` so no shared `FILE*` is touched.
enum ProcessExit {
    /// Writes `line` and a newline to standard error. Control and format characters in `line`
    /// (an unknown option's name echoed by the argument parser, say) are escaped like every other
    /// echo of user text (`TextFormat.safe`), so the message stays one line and cannot drive the terminal.
    static func printError(_ line: String) {
        let text = TextFormat.safe(line) + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code)
        #else
        Darwin.exit(code)
        #endif
    }
}
