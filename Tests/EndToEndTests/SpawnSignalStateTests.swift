import Foundation
import TestSupport
import Testing

/// What a child of the test process starts with. Swift Testing runs tests on worker threads that
/// block nearly every signal (libdispatch's mask: SIGTERM, SIGINT, SIGHUP, SIGALRM, SIGCHLD…), and
/// `posix_spawn` passes the spawning thread's mask on: a `trip`, `bash` or `psql` started by a test
/// then ignored a SIGTERM until it exited, and behaved unlike the same command run from a shell.
@Suite("Test support: children start with the signal state of a shell's")
struct SpawnSignalStateTests {
    /// Read by grep itself (a shell would clear its own mask first). Only signals 1 to 31: glibc
    /// keeps 32 and 33 for itself.
    @Test func aChildStartsWithNoSignalBlockedOrIgnored() throws {
        let r = try spawnAndWait(
            "/usr/bin/grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"].map { Array($0.utf8) }, environment: [:])
        let status = String(decoding: r.stdout, as: UTF8.self)
        for line in status.split(separator: "\n") {
            let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16)
            #expect(mask.map { $0 & 0x7FFF_FFFF } == 0, "\(line)")
        }
        #expect(status.split(separator: "\n").count == 2, "\(status)")
    }

    @Test func aChildStoppedBySIGTERMEndsAtOnce() throws {
        let folder = TemporaryFolder()
        let pid = try spawn(
            "/bin/sleep", ["30"].map { Array($0.utf8) }, environment: [:], stdin: "/dev/null", stdout: folder.file("out"),
            stderr: folder.file("err"))
        let start = Date()
        kill(pid, SIGTERM)
        let end = waitForExit(pid)
        #expect(end?.signal == SIGTERM && Date().timeIntervalSince(start) < 10, "\(String(describing: end))")
    }
}
