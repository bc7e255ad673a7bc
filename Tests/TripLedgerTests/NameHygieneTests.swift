import Foundation
import Testing

/// One name, one thing: a reader (or a `--filter`) never has to ask which `Trip` or which
/// `JSONValue` is meant.
///
/// - a top-level type name is declared once across `Sources/` and `Tests/` (the root command is
///   `TripCommand`, the trip is `Trip`; the providers' parsed JSON is `ScannedJSON`, JSON that
///   trip writes `JSONValue`);
/// - a subcommand type (`extension TripCommand { struct Demo … }`) is named like no top-level type
///   of a library (the sample trip is `DemoTrip`);
/// - a Swift file name is used once under `Tests/`, and no file is named after a target
///   (`TestSupport`).
@Suite("One name, one thing")
struct NameHygieneTests {
    static let root = SQLHygieneTests.sources.deletingLastPathComponent()

    /// `(name, file)` for each type declared at column 0 (attributes and modifiers allowed).
    static func topLevelTypes(in source: String, file: String) -> [(String, String)] {
        let regex = try! NSRegularExpression(
            pattern:
                #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|enum|class|actor|protocol)\s+([A-Z]\w*)"#,
            options: .anchorsMatchLines)
        return regex.matches(in: source, range: NSRange(source.startIndex..., in: source)).map {
            (String(source[Range($0.range(at: 1), in: source)!]), file)
        }
    }

    /// Names of the types nested in `extension TripCommand { … }` at one level of indentation.
    static func commandTypes(in source: String) -> [String] {
        guard source.contains("extension TripCommand {") else { return [] }
        let regex = try! NSRegularExpression(pattern: #"^    (?:struct|enum|final class|class)\s+([A-Z]\w*)"#, options: .anchorsMatchLines)
        return regex.matches(in: source, range: NSRange(source.startIndex..., in: source)).map {
            String(source[Range($0.range(at: 1), in: source)!])
        }
    }

    static func swiftFiles(under folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }.sorted()
    }

    static func read(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func eachTopLevelTypeNameIsDeclaredOnce() throws {
        let files = try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Tests")
        #expect(files.count > 100)
        var declared: [String: [String]] = [:]
        for file in files {
            for (name, at) in Self.topLevelTypes(in: try Self.read(file), file: file) { declared[name, default: []].append(at) }
        }
        #expect(declared["TripCommand"] != nil && declared["Trip"] != nil, "the checker found no types: is it still reading Swift?")
        let twice = declared.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        #expect(twice.isEmpty, "declared more than once:\n\(twice.map { "\($0.key): \($0.value.joined(separator: ", "))" }.joined(separator: "\n"))")
    }

    /// "Sync" alone means a shared trip's sync, and where a sync type lives says which side it is
    /// on: the local rules (`SyncRules`), the local tables (`Storage/Stores/SyncTables`),
    /// the wire format both sides use (`Storage/SyncWire`), the server session (`RemoteSync`),
    /// what the commands report (`TripModel/SyncReports.swift`). Rate syncing says "Rates"
    /// (`RatesSyncOutcome`); no folder is called `Sharing` or `Sync` alone.
    @Test func syncNamesSayWhichSide() throws {
        let homes = [
            "Sources/SyncRules/", "Sources/Storage/SyncWire/", "Sources/Storage/Stores/SyncTables/", "Sources/RemoteSync/",
            "Sources/TripModel/SyncReports.swift", "Sources/trip/Commands/",
        ]
        var elsewhere: [String] = []
        var found = 0
        for file in try Self.swiftFiles(under: "Sources") {
            for (name, _) in Self.topLevelTypes(in: try Self.read(file), file: file) where name.hasPrefix("Sync") {
                found += 1
                if !homes.contains(where: { file.hasPrefix($0) }) { elsewhere.append("\(name) in \(file)") }
            }
        }
        #expect(found >= 8, "the checker found \(found) Sync types: is it still reading Swift?")
        #expect(elsewhere.isEmpty, "a Sync type outside the sync folders (rates say Rates):\n\(elsewhere.joined(separator: "\n"))")
        let sources = Self.root.appendingPathComponent("Sources").path
        let folders = try FileManager.default.subpathsOfDirectory(atPath: sources).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: sources + "/" + path, isDirectory: &isFolder) && isFolder.boolValue
        }
        #expect(folders.count > 20)
        let vague = folders.filter { ["Sharing", "Sync"].contains($0.split(separator: "/").last.map(String.init)) }
        #expect(vague.isEmpty, "folders that do not say which side: \(vague)")
    }

    @Test func noSubcommandIsNamedLikeALibraryType() throws {
        var libraryTypes: Set<String> = []
        for file in try Self.swiftFiles(under: "Sources") where !file.hasPrefix("Sources/trip/") {
            for (name, _) in Self.topLevelTypes(in: try Self.read(file), file: file) { libraryTypes.insert(name) }
        }
        var commands: [String] = []
        for file in try Self.swiftFiles(under: "Sources/trip") { commands += Self.commandTypes(in: try Self.read(file)) }
        #expect(commands.count > 30, "found only \(commands.count) subcommand types")
        #expect(commands.filter(libraryTypes.contains).isEmpty)
    }

    @Test func testFileNamesAreUniqueAndNoneIsNamedAfterAnotherTarget() throws {
        let files = try Self.swiftFiles(under: "Tests").filter { !$0.hasPrefix("Tests/Fuzz/") }
        let names = files.map { ($0 as NSString).lastPathComponent }
        let targets =
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path)
            + FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "test files with the same name: \(repeated)")
        // `Tests/FXTestServer/FXTestServer.swift` is its own target's main type; a file named after
        // another target (`RateServiceTests/Support/TestSupport.swift`) reads as that target.
        let misleading = files.filter { file in
            let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            return targets.contains(name) && file.split(separator: "/")[1] != name
        }
        #expect(misleading.isEmpty)
    }

    /// The checkers on the collisions this suite was written after.
    @Test func theCheckersSeeTheOldCollisions() {
        #expect(Self.topLevelTypes(in: "@main\nstruct Trip: ParsableCommand {", file: "a").map(\.0) == ["Trip"])
        #expect(Self.topLevelTypes(in: "public indirect enum JSONValue: Equatable {", file: "a").map(\.0) == ["JSONValue"])
        #expect(Self.topLevelTypes(in: "@Suite(\"x\", .serialized)\nstruct DiskFullTests {", file: "a").map(\.0) == ["DiskFullTests"])
        #expect(Self.topLevelTypes(in: "    struct Nested {", file: "a").isEmpty)
        #expect(
            Self.commandTypes(in: "extension TripCommand {\n    /// `trip demo`\n    struct Demo: ParsableCommand {\n        struct Inner {}") == [
                "Demo"
            ])
    }
}
