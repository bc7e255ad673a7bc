import Foundation
import TestSupport
import Testing

/// Every child a test starts goes through TestSupport (`spawn`, `spawnAndWait`, `SpawnedProcess`,
/// `SpawnedTrip`, `TripProcess`): it starts with a shell's signal state and only its three standard
/// streams open, and only its own handle reaps and signals it. `Foundation.Process` gives none of
/// that (see `SpawnedProcess`), so no test file may use it.
@Suite("Test support: children are started one way")
struct ChildProcessRuleTests {
    @Test func noTestStartsAChildThroughFoundationProcess() throws {
        let tests = ReleaseBuild.packageRoot + "/Tests"
        let files = try #require(FileManager.default.enumerator(atPath: tests)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("ChildProcessRuleTests.swift") }
        #expect(files.count > 50, "\(files.count) Swift files under \(tests)")
        let use = try Regex(#"(?:^|[^A-Za-z])(Process\(\)|Foundation\.Process\b|Process\.run\()"#)
        // Code only: the comments that say why may name it.
        let offending = try files.filter { file in
            try String(contentsOfFile: tests + "/" + file, encoding: .utf8).split(separator: "\n")
                .contains { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") && $0.contains(use) }
        }
        #expect(offending.isEmpty, "Foundation.Process in \(offending)")
    }
}
