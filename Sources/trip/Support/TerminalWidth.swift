#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many columns text output may use.
enum TerminalWidth {
    /// `COLUMNS` when it is a positive number (shells export it, tests set it); else the terminal's
    /// width when stdout is one (`TIOCGWINSZ`); else 80.
    static func columns(environment env: [String: String]) -> Int {
        if let c = env["COLUMNS"].flatMap({ Int($0) }), c > 0 { return c }
        var size = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
