import TripCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TRIP_TRACE=1` prints how long each phase of a command took to stderr: start-up time is a
/// feature, and this is how it is kept honest. Costs one `getenv` when off.
enum StartupTrace {
    nonisolated(unsafe) static var enabled = getenv("TRIP_TRACE") != nil
    nonisolated(unsafe) static var last = now()

    static func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1_000_000 + ts.tv_nsec / 1000
    }

    /// Prints this process's peak resident memory (`VmHWM`, Linux), for `make bench`.
    static func peakMemory() {
        guard enabled, let status = TextFile.read("/proc/self/status") else { return }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            ProcessExit.printError("trace: peak memory: \(line.dropFirst(6).trimmingSpaces)")
        }
    }

    /// Prints the microseconds since the previous lap.
    static func lap(_ label: String) {
        guard enabled else { return }
        let t = now()
        ProcessExit.printError("trace: \(label): \(t - last) µs")
        last = t
    }
}
