import Foundation

/// A `trip` command running in the background, for tests that kill it or race it against others.
/// Its stdout and stderr go to files (`<prefix>.<label>.out`, `.err`; the prefix defaults to the
/// ledger's path), never to a pipe that could fill up while nobody reads it. Started, killed and
/// reaped as every background child of the tests is (`SpawnedProcess`).
public final class SpawnedTrip: @unchecked Sendable {
    public let stdoutPath: String
    public let stderrPath: String
    private let process: SpawnedProcess

    public init(_ trip: TripProcess, _ args: [String], label: String = "spawned", outputPrefix: String? = nil) throws {
        stdoutPath = (outputPrefix ?? trip.ledgerPath) + ".\(label).out"
        stderrPath = (outputPrefix ?? trip.ledgerPath) + ".\(label).err"
        process = try SpawnedProcess(TripProcess.binary, args, environment: trip.environment, stdout: stdoutPath, stderr: stderrPath)
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGKILL: the process gets no chance to clean up, as after a power cut of the process.
    /// Nothing is sent once it has been reaped (`SpawnedProcess.kill`).
    public func kill() { process.kill() }

    /// Waits for the end. `signal` is set when a signal ended it, `exitCode` otherwise.
    @discardableResult
    public func wait() -> (exitCode: Int32?, signal: Int32?) { process.wait() }

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
