import Foundation
import Testing

/// The README's "Code layout" is the map a newcomer finds their room with: every folder of
/// `Sources/` (two levels down, and the stores' own folders) and of `Tests/` is named in it, so a
/// folder moved or added without redrawing the map fails here.
@Suite("The README's code layout matches the tree")
struct ReadmeLayoutTests {
    static let root = SQLHygieneTests.sources.deletingLastPathComponent()

    /// The fenced block under `## Code layout`.
    static func layout() throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Code layout"), "the README has no Code layout section")
        let open = try #require(readme.range(of: "```", range: section.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
        return String(readme[open.upperBound..<close.lowerBound])
    }

    /// Folders `depth` levels below `folder` (relative paths), without C headers' `include/` and
    /// test data.
    static func folders(_ folder: String, depth: Int) throws -> [String] {
        let base = root.appendingPathComponent(folder).path
        return try FileManager.default.subpathsOfDirectory(atPath: base).filter { path in
            var isFolder: ObjCBool = false
            let parts = path.split(separator: "/")
            return parts.count <= depth && FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder)
                && isFolder.boolValue && !parts.contains { ["include", "Fixtures", "Corpus", "Dictionaries", "Regressions"].contains($0) }
        }.sorted()
    }

    /// Missing names of `folders` in `map`: each must appear as `NAME/` (a top-level test target as
    /// its name).
    static func unnamed(_ folders: [String], in map: String, bareNames: Bool = false) -> [String] {
        folders.filter { path in
            let name = String(path.split(separator: "/").last!)
            return !map.contains(name + "/") && !(bareNames && !path.contains("/") && map.contains(name))
        }
    }

    @Test func everyFolderIsOnTheMap() throws {
        let map = try Self.layout()
        let sources = try Self.folders("Sources", depth: 2) + Self.folders("Sources/Storage/Stores", depth: 1).map { "Storage/Stores/" + $0 }
        #expect(sources.count > 40, "found \(sources.count) folders under Sources/")
        #expect(Self.unnamed(sources, in: map).isEmpty, "folders the README's Code layout does not name: \(Self.unnamed(sources, in: map))")
        let tests = try Self.folders("Tests", depth: 1) + Self.folders("Tests/EndToEndTests", depth: 1).map { "EndToEndTests/" + $0 }
        #expect(tests.count > 8, "found \(tests.count) folders under Tests/")
        let missing = Self.unnamed(tests, in: map, bareNames: true)
        #expect(missing.isEmpty, "test folders the README's Code layout does not name: \(missing)")
    }

    /// The checker finds a folder the map leaves out (the map before the sync folders were renamed).
    @Test func theCheckerFindsAFolderLeftOff() {
        let old = "    Sharing/           the local side of shared trips\n  TripSharing/  Sync/ (Sharing)\n"
        #expect(
            Self.unnamed(["TripLedger/SyncRules", "RemoteSync/Session", "TripLedger/Sharing"], in: old) == [
                "TripLedger/SyncRules", "RemoteSync/Session",
            ])
    }
}
