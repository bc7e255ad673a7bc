import Foundation

/// A `trip` built from this working tree with a patch applied, for a test that changes the code the
/// way a developer would and runs the result (issue 35 item 1: "a test adds a field in a scratch
/// migration").
///
/// The tree is the working tree's files (tracked, and untracked but not ignored: an uncommitted
/// change counts while developing; CI runs a clean clone), copied with the patch applied by
/// `git apply` into `.build/scratch-builds/NAME/src` and built in release there (`ReleaseBuild`).
/// The folder is kept between runs and a file is rewritten only when its bytes changed, so a rerun
/// builds incrementally, and not at all when nothing changed.
public enum ScratchBuild {
    /// `git apply` refused the patch: the tree has moved on from what it was written against.
    public struct PatchDoesNotApply: Error, CustomStringConvertible {
        public let patch: String
        public let output: String
        public var description: String { "git apply \(patch) failed:\n\(output)" }
    }

    /// The path of `trip` built from the working tree with `patch` applied, in the scratch folder
    /// `name`. Throws `PatchDoesNotApply` when `git apply` refuses the patch.
    public static func trip(_ name: String, patch: String) throws -> String {
        let folder = "\(ReleaseBuild.packageRoot)/.build/scratch-builds/\(name)"
        let binary = "\(folder)/trip"
        return try ReleaseBuild.holding("\(folder).lock") {
            let tree = try patchedTree(name, patch: patch)
            if !tree.changed && FileManager.default.isExecutableFile(atPath: binary) { return binary }
            try? FileManager.default.removeItem(atPath: binary)
            try ReleaseBuild.trip(source: tree.source, build: "\(folder)/build", to: binary)
            return binary
        }
    }

    /// The package's own tests run on the working tree with `patch` applied (built in debug in the
    /// scratch folder `name`, beside the release `trip`), but those whose names match `skipping`:
    /// the exit code of `swift test`, and what it printed about failures and the run. The tests run
    /// as `make test` runs them: without `TRIP_LONG_TESTS` and `TRIP_BIN`, so with the copy's own `trip`.
    public static func test(_ name: String, patch: String, skipping: String) throws -> (exitCode: Int32, report: String) {
        let folder = "\(ReleaseBuild.packageRoot)/.build/scratch-builds/\(name)"
        return try ReleaseBuild.holding("\(folder).lock") {
            let tree = try patchedTree(name, patch: patch)
            let build = "\(folder)/debug", log = "\(folder)/test.log"
            let script = """
                \(ReleaseBuild.dependencies(into: build))
                cd '\(tree.source)'
                if ! swift build --build-tests --scratch-path '\(build)' --disable-automatic-resolution > '\(log)' 2>&1; then
                  tail -40 '\(log)'
                  exit 1
                fi
                swift test --skip-build --scratch-path '\(build)' --skip '\(skipping)' > '\(log)' 2>&1 && status=0 || status=$?
                grep -a -E '(✘|Test run with|error:)' '\(log)' | tail -60
                exit $status
                """
            let r = try ReleaseBuild.shell(script, without: ["TRIP_LONG_TESTS", "TRIP_BIN", "TRIP_SEED"])
            return (r.exitCode, r.output)
        }
    }

    /// Makes `.build/scratch-builds/NAME/src` the working tree with `patch` applied: the folder
    /// `trip` builds, and whether any of its files changed. The caller holds the folder's lock.
    public static func patchedTree(_ name: String, patch: String) throws -> (source: String, changed: Bool) {
        let root = ReleaseBuild.packageRoot
        let folder = "\(root)/.build/scratch-builds/\(name)"
        let stage = "\(folder)/stage", source = "\(folder)/src"
        let fm = FileManager.default
        try? fm.removeItem(atPath: stage)
        for file in try workingTreeFiles() {
            let to = "\(stage)/\(file)"
            try fm.createDirectory(atPath: URL(fileURLWithPath: to).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try fm.copyItem(atPath: "\(root)/\(file)", toPath: to)
        }
        // The stage lies inside this repository's `.build`: there `git apply` would take the
        // patch's paths as the repository's, skip them as outside the folder and succeed. Kept from
        // finding the repository, it patches the folder's files as `patch` would, and fails on a
        // hunk that does not apply.
        let applied = try ReleaseBuild.shell(
            "cd '\(stage)' && git apply --verbose '\(patch)'", environment: ["GIT_CEILING_DIRECTORIES": folder])
        guard applied.exitCode == 0 else { throw PatchDoesNotApply(patch: patch, output: applied.output) }
        return (source, try mirror(stage, to: source))
    }

    /// The working tree's files that exist, relative to the package's root: tracked, and untracked
    /// but not ignored.
    static func workingTreeFiles() throws -> [String] {
        let r = try spawnAndWait(
            "/usr/bin/git",
            ["-C", ReleaseBuild.packageRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard"].map { Array($0.utf8) },
            environment: ProcessInfo.processInfo.environment)
        guard r.exitCode == 0 else {
            throw ReleaseBuildError(message: "git ls-files failed: \(String(decoding: r.stderr, as: UTF8.self))")
        }
        // A tracked file deleted in the working tree is listed too, and a file staged more than once.
        let listed = Set(r.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        return listed.filter { FileManager.default.fileExists(atPath: "\(ReleaseBuild.packageRoot)/\($0)") }.sorted()
    }

    /// Makes `destination` hold the files of `source`: a file whose bytes differ (or that is new) is
    /// copied, one `source` does not have is removed, the others are left alone, keeping their times
    /// so that the build there stays incremental. Whether anything changed.
    public static func mirror(_ source: String, to destination: String) throws -> Bool {
        let fm = FileManager.default
        func files(_ folder: String) -> Set<String> {
            guard let walk = fm.enumerator(atPath: folder) else { return [] }
            var found: Set<String> = []
            while let path = walk.nextObject() as? String {
                var isFolder: ObjCBool = false
                if fm.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder), !isFolder.boolValue { found.insert(path) }
            }
            return found
        }
        let wanted = files(source), present = files(destination)
        var changed = false
        for path in present.subtracting(wanted) {
            try fm.removeItem(atPath: "\(destination)/\(path)")
            changed = true
        }
        for path in wanted.sorted() {
            let from = "\(source)/\(path)", to = "\(destination)/\(path)"
            if present.contains(path), fm.contentsEqual(atPath: from, andPath: to) { continue }
            try? fm.removeItem(atPath: to)
            try fm.createDirectory(atPath: URL(fileURLWithPath: to).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try fm.copyItem(atPath: from, toPath: to)
            changed = true
        }
        return changed
    }
}
