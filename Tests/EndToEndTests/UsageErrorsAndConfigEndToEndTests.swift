import Foundation
import TestSupport
import Testing

/// Issue 34: argument errors read like every other error, and `trip config` shows the home
/// currency new trips really get.
@Suite("End to end: usage errors and trip config")
struct UsageErrorsAndConfigEndToEndTests {
    func ledger(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "EUR").exitCode == 0)
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        return trip
    }

    @Test(arguments: [
        (["report", "--by", "week"], #"trip: --by: "week" is not one of category, day, currency, payment, member, none"#),
        (["use", "Korea", "34"], #"trip: argument: "34" is one too many for this command"#),
        (["list", "--limit", "abc"], #"trip: --limit: "abc" is not a valid value"#),
        (["list", "--limit"], "trip: --limit: a value is needed"),
        (["convert"], "trip: amount: a value is needed"),
        (["report", "--bu", "day"], #"trip: option: "--bu" is not an option of this command; did you mean --by?"#),
    ])
    func argumentErrorsAreOneLineNamingTheFieldAndTheValue(args: [String], line: String) throws {
        let folder = TemporaryFolder()
        let trip = try ledger(folder)
        let r = try trip.run(args)
        #expect(r.exitCode == 64)
        #expect(r.stderr == line + "\n")
        #expect(r.stdout.isEmpty)
    }

    @Test func configShowsTheLedgersHomeCurrencyAndWhereItCameFrom() throws {
        let folder = TemporaryFolder()
        let trip = try ledger(folder)
        let text = try trip.run("config")
        let home = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("home_currency") })
        #expect(home.contains("= EUR"), "\(home)")
        #expect(home.hasSuffix("# ledger (trip init --home)"), "\(home)")
        let json = try trip.run("config", "--format", "json").json
        let setting = try #require(json["home_currency"] as? [String: Any])
        #expect(setting["value"] as? String == "EUR")
        #expect(setting["source"] as? String == "ledger (trip init --home)")
        // New trips agree with what config says.
        let trips = try trip.run("trips", "--format", "json").json["trips"] as? [[String: Any]]
        #expect(trips?.first?["home_currency"] as? String == "EUR")
    }

    @Test func configWithoutALedgerShowsTheConfigsHomeAndCreatesNothing() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("absent.sqlite"))
        let text = try trip.run("config")
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("# config/settings.toml:"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("absent.sqlite")))
    }
}
