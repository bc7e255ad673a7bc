import Foundation
import TestSupport
import Testing

/// Issue 34, currency words: `trip edit ID --currency WORD` and `trip transfer edit … --currency
/// WORD` read the word as `trip add 8900 won` does (README, "Currency words").
@Suite("End to end: currency words in edits")
struct EditCurrencyWordsEndToEndTests {
    /// Seoul in KRW (home EUR), with trips in USD and SGD in the ledger so that "dollars" is
    /// ambiguous; purchase #1 and transfer T1 in EUR.
    static func trip() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let steps: [[String]] = [
            ["init", "--home", "EUR"], ["new", "Other", "--currency", "USD"], ["new", "Sing", "--currency", "SGD"],
            ["new", "Seoul", "--currency", "KRW"],
            ["rates", "set", "KRW", "0.00068", "--in", "EUR", "--date", "2026-03-01"],
            ["member", "add", "Ana", "Ben"], ["whoami", "Ana"],
            ["add", "8900", "EUR", "bibimbap", "--date", "2026-03-01"],
            ["transfer", "Ana", "Ben", "5000", "EUR", "--date", "2026-03-01"],
        ]
        for args in steps {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    @Test("trip edit ID --currency won edits to KRW; dollars is refused with its candidates")
    func editReadsCurrencyWords() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        let edit = try trip.run("edit", "1", "--currency", "won")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        let shown = try trip.run("list", "--format", "json")
        #expect(shown.stdout.contains("\"KRW\""), "\(shown.stdout)")
        let ambiguous = try trip.run("edit", "1", "--currency", "dollars")
        #expect(ambiguous.exitCode == 65, "\(ambiguous.stdout) \(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("USD") && ambiguous.stderr.contains("SGD"), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.split(separator: "\n").count == 1, "\(ambiguous.stderr)")
    }

    @Test("trip transfer edit --currency won edits to KRW; dollars is refused with its candidates")
    func transferEditReadsCurrencyWords() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        let edit = try trip.run("transfer", "edit", "T1", "--amount", "8900", "--currency", "won")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        let shown = try trip.run("transfers")
        #expect(shown.stdout.contains("KRW"), "\(shown.stdout)")
        let ambiguous = try trip.run("transfer", "edit", "T1", "--amount", "20", "--currency", "dollars")
        #expect(ambiguous.exitCode == 65, "\(ambiguous.stdout) \(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("USD") && ambiguous.stderr.contains("SGD"), "\(ambiguous.stderr)")
    }
}
