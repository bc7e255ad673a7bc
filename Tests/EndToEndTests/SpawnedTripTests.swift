import Foundation
import TestSupport
import Testing

/// `SpawnedTrip.kill` after the process was reaped (issue 34). The tests kill `trip` at random
/// moments, and one that ended first was reaped by `isRunning` before the kill: its pid was free,
/// and with 32,768 pids and thousands of processes a test run starts, the SIGKILL could land on
/// another test's `trip` or `bash`.
@Suite("Test support: a spawned trip is never killed after it was reaped")
struct SpawnedTripTests {
    static let lastPid = "/proc/sys/kernel/ns_last_pid"

    /// The reaped pid is handed to a new process on purpose (by setting the kernel's last pid just
    /// below it), and the kill must not reach that process.
    @Test(.enabled(if: access(lastPid, W_OK) == 0))
    func killAfterTheEndSignalsNoOtherProcess() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        // Other tests start processes meanwhile and may take the pid first: a few tries.
        for _ in 0..<50 {
            let ended = try SpawnedTrip(trip, ["--version"], label: "ended")
            #expect(ended.wait().exitCode == 0, "\(ended.stderr)")
            try "\(ended.pid - 1)".write(toFile: Self.lastPid, atomically: false, encoding: .utf8)
            let other = try spawn(
                "/bin/sleep", [Array("30".utf8)], environment: [:], stdin: "/dev/null", stdout: folder.file("out"),
                stderr: folder.file("err"))
            guard other == ended.pid else {
                kill(other, SIGKILL)
                _ = waitForExit(other)
                continue
            }
            ended.kill()
            // A process that a SIGKILL reached dies of it, whatever is sent after.
            kill(other, SIGTERM)
            let end = waitForExit(other)
            #expect(end?.signal == SIGTERM, "the kill of the ended trip (pid \(ended.pid)) reached sleep: \(String(describing: end))")
            return
        }
        Issue.record("pid never reused in 50 tries: the kill after the end was not tested")
    }
}
