import Foundation
import TestSupport
import Testing

/// The throwaway PostgreSQL of the sharing tests never outlives the test process, even when the
/// checkout it was started from is deleted first (a CI clone removed while its tests ran).
@Suite("Test cluster: stopped when the test process ends, however it ends")
struct TestClusterTests {
    @Test func theClusterStopsWhenItsProcessDiesAfterTheCheckoutIsDeleted() throws {
        let original = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Postgres/pg-cluster.sh").path
        // A checkout of its own, deleted below.
        let checkout = TemporaryFolder("trip-clone")
        try FileManager.default.createDirectory(atPath: checkout.file("Postgres"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: original, toPath: checkout.file("Postgres/pg-cluster.sh"))
        // The "test process": a sleep that this test kills.
        let owner = try spawn(
            "/bin/sleep", ["600"].map { Array($0.utf8) }, environment: [:], stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
        let folder = NSTemporaryDirectory() + "/trip-pg-\(getpid())-watchdog"
        let env = ["PATH": "/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"]
        let started = try spawnAndWait(
            "/bin/bash", [checkout.file("Postgres/pg-cluster.sh"), "start", folder, String(owner)].map { Array($0.utf8) }, environment: env)
        defer { _ = try? spawnAndWait("/bin/bash", [original, "stop", folder].map { Array($0.utf8) }, environment: env) }
        try #require(started.exitCode == 0, "\(String(decoding: started.stderr, as: UTF8.self))")
        #expect(FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid"), "the server runs")

        try FileManager.default.removeItem(atPath: checkout.path)
        kill(owner, SIGKILL)
        _ = waitForExit(owner)
        var stopped = false
        for _ in 0..<150 where !stopped {
            usleep(100_000)
            stopped = !FileManager.default.fileExists(atPath: folder)
        }
        #expect(stopped, "the watchdog stopped the server and removed its folder")
        let left = try spawnAndWait("/usr/bin/pgrep", ["-f", "postgres -D \(folder)/data"].map { Array($0.utf8) }, environment: env)
        #expect(left.exitCode == 1, "no server of that folder is left running")
    }
}
