import Foundation

/// A `trip` built from the project's own git history, for the tests that check an older release and
/// this one against each other (issue 35: "a test builds the old binary from the project's own git
/// history").
///
/// The commit's tree is taken with `git archive` (no worktree is added to the repository) and built
/// with `swift build -c release`; the binary is kept under `.build/old-releases/COMMIT/trip`, so
/// each commit is built once per checkout. The dependencies resolve from the package's own
/// `.build` (copied into the build's scratch folder), so no network is needed.
public enum OldRelease {
    /// The package's root: this file is `Tests/TestSupport/OldRelease.swift`.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `trip` as built at `commit`, building it first when it is not kept yet.
    public static func trip(_ commit: String) throws -> String {
        let root = packageRoot.path
        let kept = "\(root)/.build/old-releases/\(commit)"
        let binary = "\(kept)/trip"
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let work = "\(kept)-work"
        let script = """
            set -e
            # Suites run in parallel and may ask for the same commit at once: one builds, the others
            # wait for it and take its binary (two builds in one scratch folder crash the compiler).
            mkdir -p '\(root)/.build/old-releases'
            exec 9>'\(kept).lock'
            flock 9
            [ -x '\(binary)' ] && exit 0
            rm -rf '\(work)/src' && mkdir -p '\(work)/src' '\(work)/build'
            git -C '\(root)' archive '\(commit)' | tar -x -C '\(work)/src'
            for d in repositories checkouts; do
              [ -d '\(root)/.build/'$d ] && [ ! -d '\(work)/build/'$d ] && cp -R '\(root)/.build/'$d '\(work)/build/'$d
            done
            [ -f '\(root)/.build/workspace-state.json' ] && cp '\(root)/.build/workspace-state.json' '\(work)/build/' || true
            cd '\(work)/src'
            swift build -c release --product trip --scratch-path '\(work)/build' --disable-automatic-resolution 2>&1 | tail -20
            mkdir -p '\(kept)'
            cp "$(swift build -c release --product trip --scratch-path '\(work)/build' --show-bin-path)/trip" '\(binary).partial'
            mv '\(binary).partial' '\(binary)'
            """
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin") + ":/opt/swift/usr/bin:/usr/bin:/bin"
        let r = try spawnAndWait("/bin/sh", [Array("-c".utf8), Array(script.utf8)], environment: environment)
        guard r.exitCode == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            throw OldReleaseError(
                message: "building trip at \(commit) failed: \(String(decoding: r.stdout + r.stderr, as: UTF8.self))")
        }
        return binary
    }
}

public struct OldReleaseError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
