import Foundation
import TestSupport
import Testing

/// What a child of the test process has open (issue 34). `swift test` runs under `flock`, whose
/// lock descriptor is not close-on-exec, and a library may open one the same way: `posix_spawn`
/// passed every such descriptor on to each `trip`, `bash` or `psql` a test started, and to their
/// children, which then held the build lock (and whatever else) for as long as they lived.
@Suite("Test support: children start with only stdin, stdout and stderr open")
struct SpawnFileDescriptorTests {
    /// `ls -l /proc/self/fd` in the child, as (descriptor, what it names).
    static func openInChild() throws -> [(fd: Int32, target: String)] {
        let r = try spawnAndWait("/bin/ls", ["-l", "/proc/self/fd"].map { Array($0.utf8) }, environment: [:])
        try #require(r.exitCode == 0, "\(String(decoding: r.stderr, as: UTF8.self))")
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let arrow = line.range(of: " -> ") else { return nil }
            guard let fd = line[..<arrow.lowerBound].split(separator: " ").last.flatMap({ Int32($0) }) else { return nil }
            return (fd, String(line[arrow.upperBound...]))
        }
    }

    @Test func aDescriptorOpenWithoutCloseOnExecIsClosedInTheChild() throws {
        let folder = TemporaryFolder()
        let marker = folder.file("held-open")
        let fd = open(marker, O_RDONLY | O_CREAT, 0o600)  // no O_CLOEXEC: as `flock`'s lock descriptor
        try #require(fd > 2)
        defer { close(fd) }
        let open = try Self.openInChild()
        #expect(open.map(\.fd).filter { $0 <= 2 }.sorted() == [0, 1, 2], "\(open)")
        // By name: /proc shows the path resolved, where `marker` may hold a symbolic link or "//".
        #expect(!open.contains { $0.target.hasSuffix("/held-open") }, "\(open)")
        // The only one above 2 is the folder `ls` itself opened to list them.
        let above2 = open.filter { $0.fd > 2 }
        #expect(above2.count <= 1 && above2.allSatisfy { $0.target.hasSuffix("/fd") }, "\(open)")
    }
}
