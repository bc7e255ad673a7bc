import Foundation
import TestSupport
import Testing

/// Bad input through the binary: exact messages for a few cases; the corpus of rejected inputs is
/// Fixtures/bad-inputs.tsv.
@Suite("End to end: bad input changes nothing")
struct BadInputTests {
    // The table of rejected inputs moved to Fixtures/bad-inputs.tsv (BadInputCorpusTests).

    @Test func messagesNameTheFieldAndValue() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        #expect(try trip.run("add", "4.5.6").stderr == "trip: amount: \"4.5.6\" is not a valid number\n")
        #expect(try trip.run("add", "100", "--discount", "150%").stderr == "trip: discount: \"150%\" is over 100%\n")
        #expect(try trip.run("add", "100", "UDS").stderr.contains("\"UDS\"; did you mean USD"))
        #expect(
            try trip.run("add", "1,200", "usd").stderr
                == "trip: amount: \"1,200\" is ambiguous: 1200 if \",\" groups thousands, 1.2 if it is the decimal separator; type 1200 or 1.2 instead\n"
        )
        #expect(try trip.run("add", "100", "--date", "2026-02-30").stderr.contains("date: \"2026-02-30\""))
    }

    @Test func notesWithControlCodesAreRejected() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        let added = try trip.run("add", "100", "--note", "evil\u{1B}[2J\u{7}bell")
        #expect(added.exitCode == 65)
        #expect(added.stdout.isEmpty)
        #expect(
            added.stderr
                == "trip: note: \"evil\\u{1b}[2J\\u{7}bell\" contains the control character U+001B; only printable text, tabs and line breaks are accepted\n"
        )
        #expect(try trip.run("list").stdout == "No purchases in Japan.\n")
    }
}
