import Foundation
import Testing
import TestSupport

/// Bad input through the binary: each gets exit 64 or 65, one line on stderr naming the value,
/// nothing on stdout, and the ledger's content is unchanged.
@Suite("End to end: bad input changes nothing")
struct BadInputTests {
    static let cases: [[String]] = [
        ["add", "4.5.6"], ["add", ""], ["add", "abc"], ["add", "1/0"], ["add", "-5"],
        ["add", "99999999999999999999"], ["add", "1,200", "USD"], ["add", "12.3456", "USD"], ["add", "3*(1200"],
        ["add", "100", "XYZ"], ["add", "100", "--discount", "150%"], ["add", "100", "--discount", "-5%"],
        ["add", "100", "--discount", "200"], ["add", "100", "--tip", "NaN%"], ["add", "100", "--tax", "1e400%"],
        ["add", "100", "--date", "2026-02-30"], ["add", "100", "--date", "0000-01-01"], ["add", "100", "--date", "10000-01-01"],
        ["add", "100", "--note", String(repeating: "x", count: 100_000)], ["add", "100", "--preset", "XX"],
        ["add", "100", "--rounding", "sideways"], ["add", "100", "--rate", "0"], ["add", "100", "--rate", "abc"],
        ["add", "100", "--charged", "abc"], ["add", "100", "--trip", "Nowhere"], ["add", "100", "--frobnicate"],
        ["add"], ["add", "100", "--tax-included"], ["new", ""], ["new", "Japan"],
        ["new", "X", "--start", "2026-03-05", "--end", "2026-03-01"], ["new", "X", "--currency", "usdollar"],
        ["rates", "set", "JPY", "-1"], ["rates", "set", "XAU", "1"], ["rates", "set", "USD", "1", "--in", "USD"],
        ["edit", "999", "--amount", "5"], ["edit", "1", "--amount", "-3"], ["rm", "abc"], ["convert", "100", "JPY", "QQQ"],
        ["delete", "Japan"], ["use", "Nowhere"], ["list", "--since", "yesterday-ish"], ["report", "--trip", "Nowhere"],
    ]

    @Test(arguments: cases)
    func rejected(_ args: [String]) throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067").exitCode == 0)
        try #require(trip.run("add", "1200", "ramen", "--preset", "JP").exitCode == 0)
        let before = try dumpLedger(folder.file("ledger.sqlite"))

        let result = try trip.run(args)
        #expect([64, 65].contains(result.exitCode), "exit \(result.exitCode): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("trip: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.count < 400)
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
    }

    @Test func messagesNameTheFieldAndValue() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        #expect(try trip.run("add", "4.5.6").stderr == "trip: amount: \"4.5.6\" is not a valid number\n")
        #expect(try trip.run("add", "100", "--discount", "150%").stderr == "trip: discount: \"150%\" is over 100%\n")
        #expect(try trip.run("add", "100", "UDS").stderr.contains("\"UDS\"; did you mean USD"))
        #expect(try trip.run("add", "1,200", "usd").stderr
                == "trip: amount: \"1,200\" is ambiguous: 1200 if \",\" groups thousands, 1.2 if it is the decimal separator; type 1200 or 1.2 instead\n")
        #expect(try trip.run("add", "100", "--date", "2026-02-30").stderr.contains("date: \"2026-02-30\""))
    }

    @Test func notesCannotReachTheTerminalRaw() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        let added = try trip.run("add", "100", "--note", "evil\u{1B}[2J\u{7}bell")
        #expect(added.exitCode == 0)
        #expect(!added.stdout.contains("\u{1B}"))
        #expect(added.stdout.contains("evil\\u{1b}[2J\\u{7}bell"))
        #expect(!(try trip.run("list").stdout.contains("\u{1B}")))
        // JSON keeps the exact text, escaped.
        #expect(try trip.run("list", "--format", "json").stdout.contains("evil\\u001b[2J\\u0007bell"))
    }
}
