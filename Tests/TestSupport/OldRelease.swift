import Foundation

/// A `trip` built from the project's own git history, for the tests that check an older release and
/// this one against each other (issue 35: "a test builds the old binary from the project's own git
/// history").
///
/// The commit's tree is taken with `git archive` (no worktree is added to the repository) and built
/// in release (`ReleaseBuild`); the binary is kept under `.build/old-releases/COMMIT/trip`, so each
/// commit is built once per checkout.
public enum OldRelease {
    /// The path of `trip` as built at `commit`, building it first when it is not kept yet.
    public static func trip(_ commit: String) throws -> String {
        let root = ReleaseBuild.packageRoot
        let kept = "\(root)/.build/old-releases/\(commit)"
        let binary = "\(kept)/trip"
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let work = "\(kept)-work"
        return try ReleaseBuild.holding("\(kept).lock") {
            // Another suite may have built it while this one waited for the lock.
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
            let r = try ReleaseBuild.shell(
                """
                set -e
                rm -rf '\(work)/src' && mkdir -p '\(work)/src' '\(kept)'
                git -C '\(root)' archive '\(commit)' | tar -x -C '\(work)/src'
                """)
            guard r.exitCode == 0 else { throw ReleaseBuildError(message: "taking the tree of \(commit) failed: \(r.output)") }
            do {
                try ReleaseBuild.trip(source: "\(work)/src", build: "\(work)/build", to: binary)
            } catch let e as ReleaseBuildError {
                throw ReleaseBuildError(message: "building trip at \(commit) failed: \(e.message)")
            }
            return binary
        }
    }
}
