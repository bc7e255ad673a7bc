import Foundation
import Testing
import TestSupport

/// Issue 10, group 5: the command-line conventions, each through the built `trip` binary.
@Suite("End to end: command-line conventions")
struct CommandLineConventionsTests {
    /// A ledger with a current trip `Japan` (JPY → USD).
    func japan(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        return trip
    }

    // MARK: global options before the subcommand

    @Test func globalOptionsWorkBeforeTheSubcommand() throws {
        let folder = TemporaryFolder()
        // TRIP_DB points elsewhere: only --db before the subcommand finds the ledger.
        let elsewhere = TripProcess(ledgerPath: folder.file("other.sqlite"))
        let work = folder.file("work.sqlite")
        #expect(try elsewhere.run("--db", work, "init", "--home", "USD").exitCode == 0)
        #expect(try elsewhere.run("--db=\(work)", "new", "Japan", "--currency", "JPY").exitCode == 0)
        let add = try elsewhere.run("-f", work, "add", "1200", "JPY", "ramen")
        #expect(add.exitCode == 0, "\(add.stderr)")
        let list = try elsewhere.run("--db", work, "--format", "json", "list")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(list.json["trip"] as? String == "Japan")
        let report = try elsewhere.run("--format", "csv", "--db", work, "report")
        #expect(report.exitCode == 0, "\(report.stderr)")
        #expect(try elsewhere.run("-O", "json", "--db", work, "rates", "status").exitCode == 0)
        // Formats are still checked per command, whichever side of it they are typed.
        let csvList = try elsewhere.run("--format", "csv", "--db", work, "list")
        #expect(csvList.exitCode == 64)
        #expect(csvList.stderr.contains("--format csv is not available for `list`"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("other.sqlite")))
        let missing = folder.file("missing.toml")
        let config = try elsewhere.run("--config", missing, "--db", work, "trips")
        #expect(config.exitCode == 64)
        #expect(config.stderr.contains("no config file at \"\(missing)\""))
    }

    // MARK: mistyped subcommands

    @Test(arguments: [
        (["lsit"], "unknown command \"lsit\"; did you mean 'list'?"),
        (["reprot", "--format", "json"], "unknown command \"reprot\"; did you mean 'report'?"),
        (["exprot"], "did you mean 'export'?"),
        (["rates", "snyc"], "rates: unknown command \"snyc\"; did you mean 'sync'?"),
        (["help", "ad"], "unknown command \"ad\"; did you mean 'add'?"),
        (["help", "rates", "stauts"], "rates: unknown command \"stauts\"; did you mean 'status'?"),
        (["xyzzy"], "unknown command \"xyzzy\"; `trip --help` lists them"),
    ])
    func mistypedSubcommandSuggestsTheNearest(args: [String], message: String) throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let r = try trip.run(args)
        #expect(r.exitCode == 64)
        #expect(r.stderr.hasPrefix("trip: ") && r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1)
        #expect(r.stdout.isEmpty)
    }

    @Test func helpForAnExistingCommandStillWorks() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let r = try trip.run("help", "add")
        #expect(r.exitCode == 0)
        #expect(r.stdout.contains("Log a purchase."))
        #expect(try trip.run("help", "rates", "sync").stdout.contains("USAGE: trip rates sync"))
    }

    // MARK: short flags

    @Test func shortFlagsForTheCommonOptions() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        let add = try trip.run("add", "1200", "-n", "ramen", "-c", "food", "-d", "2026-03-01", "-t", "Japan", "-O", "json")
        #expect(add.exitCode == 0, "\(add.stderr)")
        #expect(add.json["note"] as? String == "ramen")
        #expect(add.json["category"] as? String == "food")
        #expect(add.json["date"] as? String == "2026-03-01")
        #expect(add.json["trip"] as? String == "Japan")
        let list = try trip.run("list", "-t", "Japan", "-c", "food", "-O", "json")
        #expect((list.json["purchases"] as? [Any])?.count == 1)
        let edit = try trip.run("edit", "1", "-n", "udon", "-O", "json")
        #expect(edit.json["note"] as? String == "udon")
        #expect(edit.json["date"] as? String == "2026-03-01")
    }

    @Test func editHelpDoesNotClaimTheDateDefaultsToToday() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let help = try trip.run("edit", "--help").stdout
        #expect(help.contains("edit: keeps the stored date"))
        #expect(!help.contains("Default: today."))
    }
}
