import Foundation
import TestSupport
import Testing

/// `ScratchBuild`'s own checks, which `AddAFieldTests` relies on: a patch that does not apply is
/// refused before anything is built, and a copy rewrites only what changed (so the build there
/// stays incremental). Neither builds `trip`.
@Suite("ScratchBuild: a patched copy of this tree")
struct ScratchBuildTests {
    /// A patch file holding `text`, and the scratch folder `name`, emptied: `clear()` removes the
    /// folder and its lock again.
    struct Scratch {
        let folder = TemporaryFolder("trip-scratch-build")
        let name: String
        let patch: String
        let path: String

        init(_ name: String, patch text: String) throws {
            self.name = name
            patch = folder.file("test.patch")
            path = "\(ReleaseBuild.packageRoot)/.build/scratch-builds/\(name)"
            try Data(text.utf8).write(to: URL(fileURLWithPath: patch))
            clear()
        }

        func clear() { for p in [path, path + ".lock"] { try? FileManager.default.removeItem(atPath: p) } }
    }

    @Test func aPatchThatDoesNotApplyIsRefusedBeforeAnyBuild() throws {
        let s = try Scratch(
            "scratch-build-tests-stale",
            patch: """
                diff --git a/Package.swift b/Package.swift
                --- a/Package.swift
                +++ b/Package.swift
                @@ -1,1 +1,1 @@
                -// not the first line of Package.swift
                +// changed

                """)
        defer { s.clear() }
        let (name, patch, scratch) = (s.name, s.patch, s.path)

        let refused = #expect(throws: ScratchBuild.PatchDoesNotApply.self) { try ScratchBuild.trip(name, patch: patch) }
        #expect(refused?.output.contains("Package.swift") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: "\(scratch)/build"), "a build started after git apply failed")
        #expect(!FileManager.default.fileExists(atPath: "\(scratch)/src"), "the sources were copied after git apply failed")
    }

    /// The patch, as `git diff` writes one, reaches the copy, changed and new files alike, and the
    /// working tree is left as it was. (Inside this repository's `.build`, a `git apply` that finds
    /// the repository skips every file of such a patch and succeeds.)
    @Test func aPatchIsAppliedToTheCopyOnly() throws {
        let s = try Scratch(
            "scratch-build-tests-applied",
            patch: """
                diff --git a/Package.swift b/Package.swift
                --- a/Package.swift
                +++ b/Package.swift
                @@ -1,2 +1,3 @@
                 // swift-tools-version:6.0
                +// patched
                 import PackageDescription
                diff --git a/Patched/new.txt b/Patched/new.txt
                new file mode 100644
                --- /dev/null
                +++ b/Patched/new.txt
                @@ -0,0 +1 @@
                +a new file

                """)
        defer { s.clear() }
        let (name, patch) = (s.name, s.patch)
        let original = try String(contentsOfFile: "\(ReleaseBuild.packageRoot)/Package.swift", encoding: .utf8)

        let tree = try ScratchBuild.patchedTree(name, patch: patch)
        #expect(tree.changed)
        let patched = try String(contentsOfFile: "\(tree.source)/Package.swift", encoding: .utf8)
        #expect(patched.split(separator: "\n").prefix(3) == ["// swift-tools-version:6.0", "// patched", "import PackageDescription"])
        #expect(try String(contentsOfFile: "\(tree.source)/Patched/new.txt", encoding: .utf8) == "a new file\n")
        #expect(FileManager.default.fileExists(atPath: "\(tree.source)/Sources/trip/TripCommand.swift"))
        #expect(try String(contentsOfFile: "\(ReleaseBuild.packageRoot)/Package.swift", encoding: .utf8) == original)
        #expect(!FileManager.default.fileExists(atPath: "\(ReleaseBuild.packageRoot)/Patched"))
        #expect(try !ScratchBuild.patchedTree(name, patch: patch).changed, "the same tree again changed the copy")
    }

    @Test func aCopyRewritesOnlyWhatChanged() throws {
        let folder = TemporaryFolder("trip-scratch-build")
        let source = folder.file("source"), copy = folder.file("copy")
        func write(_ path: String, _ text: String) throws {
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        func modified(_ path: String) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        }
        try write("\(source)/same.swift", "let a = 1\n")
        try write("\(source)/Sub/changed.swift", "let b = 2\n")
        try write("\(source)/Sub/new.swift", "let c = 3\n")
        try write("\(copy)/same.swift", "let a = 1\n")
        try write("\(copy)/Sub/changed.swift", "let b = 1\n")
        try write("\(copy)/gone.swift", "let d = 4\n")
        let long = Date(timeIntervalSince1970: 1_000_000_000)
        for file in ["same.swift", "Sub/changed.swift"] {
            try FileManager.default.setAttributes([.modificationDate: long], ofItemAtPath: "\(copy)/\(file)")
        }

        #expect(try ScratchBuild.mirror(source, to: copy))
        #expect(try modified("\(copy)/same.swift") == long, "an unchanged file was rewritten")
        #expect(try modified("\(copy)/Sub/changed.swift") != long, "a changed file kept its time")
        #expect(try String(contentsOfFile: "\(copy)/Sub/changed.swift", encoding: .utf8) == "let b = 2\n")
        #expect(try String(contentsOfFile: "\(copy)/Sub/new.swift", encoding: .utf8) == "let c = 3\n")
        #expect(!FileManager.default.fileExists(atPath: "\(copy)/gone.swift"))
        #expect(try !ScratchBuild.mirror(source, to: copy), "a second copy of the same files changed something")
    }
}
