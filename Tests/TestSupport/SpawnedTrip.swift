import Foundation

/// A `trip` command running in the background, for tests that kill it or race it against others.
/// Its stdout and stderr go to files (`<prefix>.<label>.out`, `.err`; the prefix defaults to the
/// ledger's path), never to a pipe that could fill up while nobody reads it.
///
/// Started with `posix_spawn` and reaped with `waitpid`, not `Foundation.Process`: its
/// `waitUntilExit` can miss the end of a child killed at once and wait forever (seen in CI, a
/// SIGKILLed import left a zombie and the suite hung).
public final class SpawnedTrip: @unchecked Sendable {
    public let pid: Int32
    public let stdoutPath: String
    public let stderrPath: String
    private let lock = NSLock()
    private var end: (exitCode: Int32?, signal: Int32?)?

    public init(_ trip: TripProcess, _ args: [String], label: String = "spawned", outputPrefix: String? = nil) throws {
        stdoutPath = (outputPrefix ?? trip.ledgerPath) + ".\(label).out"
        stderrPath = (outputPrefix ?? trip.ledgerPath) + ".\(label).err"
        pid = try spawn(
            TripProcess.binary, args.map { Array($0.utf8) }, environment: trip.environment, stdin: "/dev/null", stdout: stdoutPath,
            stderr: stderrPath)
    }

    public var isRunning: Bool {
        lock.withLock {
            if end == nil { end = waitForExit(pid, block: false) }
            return end == nil
        }
    }

    /// Sends SIGKILL: the process gets no chance to clean up, as after a power cut of the process.
    /// Once it has been reaped (by `isRunning` or `wait`) nothing is sent: its pid is free then, and
    /// may already be another process's, another test's `trip` or `bash` (`SpawnedTripTests`).
    /// Until then it is this process's child, a zombie at worst, whose pid nobody else can have.
    public func kill() {
        lock.withLock {
            if end == nil { _ = Foundation.kill(pid, SIGKILL) }
        }
    }

    /// Waits for the end. `signal` is set when a signal ended it, `exitCode` otherwise.
    public func wait() -> (exitCode: Int32?, signal: Int32?) {
        // Waits for the exit without reaping (`WNOWAIT`), outside the lock, so that a `kill` from
        // another thread is not held up until then; reaps under the lock.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        return lock.withLock {
            if end == nil { end = waitForExit(pid) }
            return end!
        }
    }

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
}

/// Whether some process holds the WAL write lock of the ledger at `path`: then a write transaction
/// is open on it. SQLite takes it as an exclusive POSIX lock on byte 120 of the `-shm` file (the
/// first of its shared-memory locks); `F_GETLK` asks without taking it.
public func ledgerWriteLockIsHeld(_ path: String) -> Bool {
    let fd = open(path + "-shm", O_RDWR)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 120
    lock.l_len = 1
    guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
    return lock.l_type != Int16(F_UNLCK)
}

/// Seconds since `start` on the monotonic clock.
public func secondsSince(_ start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
