import Foundation

/// A child process running in the background, started by `spawn` (so it begins with a shell's
/// signal state and only stdin, stdout and stderr open) and reaped with `waitpid` by this handle
/// alone. Every test that starts a child goes through `spawn`, `spawnAndWait`, this handle or
/// `SpawnedTrip` (`ChildProcessRuleTests`), never `Foundation.Process`: its children inherit the
/// spawning thread's blocked signals, and it sees a child's end only when a socket closes that a
/// child started meanwhile elsewhere can also hold, so `waitUntilExit` can wait for that other
/// child too (make test-long once hung 14 minutes in `waitUntilExit` on a SIGKILLed import, 4f5aaec).
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: Int32
    private let lock = NSLock()
    private var end: (exitCode: Int32?, signal: Int32?)?

    /// Starts `executable` with `arguments` and exactly `environment`; its streams are the files
    /// named (`/dev/null` by default).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: String = "/dev/null",
        stdout: String = "/dev/null", stderr: String = "/dev/null"
    ) throws {
        pid = try spawn(
            executable, arguments.map { Array($0.utf8) }, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
    }

    public var isRunning: Bool {
        lock.withLock {
            if end == nil { end = waitForExit(pid, block: false) }
            return end == nil
        }
    }

    /// Sends `signal` (SIGKILL by default) unless the child has been reaped (by `isRunning` or
    /// `wait`): its pid is free then, and may already be another process's, another test's `trip`
    /// or `bash` (`SpawnedTripTests`). Until then it is this process's child, a zombie at worst,
    /// whose pid nobody else can have.
    public func kill(_ signal: Int32 = SIGKILL) {
        lock.withLock {
            if end == nil { _ = Foundation.kill(pid, signal) }
        }
    }

    /// Waits for the end. `signal` is set when a signal ended it, `exitCode` otherwise.
    @discardableResult
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
}
