import Foundation
import TestSupport
import Testing

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
        (["--db", "work.sqlite", "lsit"], "unknown command \"lsit\"; did you mean 'list'?"),
        (["--format", "json", "rates", "stauts"], "rates: unknown command \"stauts\"; did you mean 'status'?"),
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

    // MARK: currencies, pasted amounts, ambiguous numbers

    @Test func threeCapitalsThatAreNoCurrencySuggestANoteToo() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "890", "KFC", "lunch")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("unknown ISO 4217 code \"KFC\"; did you mean "))
        #expect(r.stderr.contains("type: trip add 890 --note 'KFC lunch'"))
        // The suggestion works as typed.
        #expect(try trip.run("add", "890", "--note", "KFC lunch", "-O", "json").json["note"] as? String == "KFC lunch")
    }

    /// Pasted amounts read in the trip `Japan` (JPY): the marker decides when it names one currency.
    @Test(arguments: [
        ("¥1,200", "JPY", "1200"), ("1200円", "JPY", "1200"), ("₩8,900", "KRW", "8900"), ("12.50USD", "USD", "12.50"),
        ("€ 8,50", "EUR", "8.50"), ("£3.20", "GBP", "3.20"), ("S$25", "SGD", "25.00"), ("USD 12.50", "USD", "12.50"),
        ("$12.50 USD", "USD", "12.50"), ("¥ 3*1200", "JPY", "3600"),
        ("RM12.50", "MYR", "12.50"), ("CN¥12", "CNY", "12.00"), ("12,50 €", "EUR", "12.50"), ("12.50 usd", "USD", "12.50"),
    ])
    func pastedAmountWithAnUnambiguousMarkerIsRead(text: String, currency: String, price: String) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", text, "-O", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["currency"] as? String == currency)
        #expect(r.json["price"] as? String == price)
    }

    @Test func aDollarIsReadInADollarTripAndATypedCurrencyDecides() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        #expect(try trip.run("add", "$12.50", "SGD", "-O", "json").json["currency"] as? String == "SGD")
        #expect(try trip.run("add", "¥1,200", "JPY", "-O", "json").json["price"] as? String == "1200")
        try #require(trip.run("new", "Singapore", "--currency", "SGD").exitCode == 0)
        let sgd = try trip.run("add", "$12.50", "-O", "json")
        #expect(sgd.json["currency"] as? String == "SGD")
        #expect(sgd.json["price"] as? String == "12.50")
    }

    @Test(
        arguments: [
            // (amount, typed currency, trip, words the error must offer)
            ("$12.50", nil, "Japan", "type: trip add 12.50 USD or trip add 12.50 SGD or trip add 12.50 AUD"),
            ("€8", "JPY", "Japan", "has \"€\", which is not JPY; type: trip add 8 EUR"),
            ("¥1,200", nil, "Korea", "which may be JPY, CNY; type: trip add 1,200 JPY or trip add 1200 CNY or trip add 1.2 CNY"),
            ("¥1,200 USD", nil, "Japan", "names two different currencies"),
            ("JP¥12.50", nil, "Japan", "has 2 decimal places; JPY has 0"),
            (
                "¥1,200", "CNY", "Japan",
                "is ambiguous: 1200 if \",\" groups thousands, 1.2 if it is the decimal separator; type 1200 CNY or 1.2 CNY instead"
            ),
        ] as [(String, String?, String, String)])
    func pastedAmountThatCannotDecideIsRejectedWithTheWordsToType(
        text: String, currency: String?, tripName: String, words: String
    ) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        let r = try trip.run(["add", text] + (currency.map { [$0] } ?? []) + ["-t", tripName])
        #expect(r.exitCode == 65)
        #expect(r.stderr.hasPrefix("trip: amount: \"\(text)\""))
        #expect(r.stderr.contains(words), "\(r.stderr)")
        #expect(
            try trip.run("list", "-t", tripName, "-O", "json").json["purchases"] as? [Any] == nil
                || (try trip.run("list", "-t", tripName, "-O", "json").json["purchases"] as? [Any])?.isEmpty == true)
    }

    @Test func editReadsAPastedAmountAndSaysWhatToType() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("add", "1000").exitCode == 0)
        #expect(try trip.run("edit", "1", "--amount", "¥1,300", "-O", "json").json["price"] as? String == "1300")
        let r = try trip.run("edit", "1", "--amount", "$5")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("type: trip edit 1 --amount 5 --currency USD"))
    }

    @Test func ambiguousThousandsSuggestOnlyValidInput() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "12,345", "USD")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("type 12345 instead"), "\(r.stderr)")
        #expect(!r.stderr.contains("12.3450"))
        #expect(try trip.run("add", "12345", "USD").exitCode == 0)
        // Both readings valid: both offered, and both accepted.
        let both = try trip.run("add", "1,250", "USD")
        #expect(both.stderr.contains("type 1250 or 1.25 instead"))
        #expect(try trip.run("add", "1.25", "USD").exitCode == 0)
    }

    @Test func afterDeletingTheCurrentTripErrorsPointAtTripUse() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        try #require(trip.run("delete", "Korea", "--yes").exitCode == 0)
        for args in [["add", "100"], ["list"], ["report"]] {
            let r = try trip.run(args)
            #expect(r.exitCode == 65)
            #expect(r.stderr == "trip: no current trip; choose one with `trip use NAME` (\"Japan\") or pass --trip NAME\n")
        }
        let empty = TripProcess(ledgerPath: folder.file("empty.sqlite"))
        try #require(empty.run("init").exitCode == 0)
        #expect(try empty.run("list").stderr.contains("create one with `trip new NAME`"))
    }

    @Test(arguments: [["--tax", "10", "%"], ["--tip=15", "%"], ["--service", "10", "%", "ramen"]])
    func aSpaceBeforePercentIsAnError(options: [String]) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run(["add", "1200"] + options)
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("has a space before \"%\"; type --"), "\(r.stderr)")
        #expect((try trip.run("list", "-O", "json").json["purchases"] as? [Any])?.isEmpty == true)
    }

    // MARK: config errors

    @Test func configThatIsAFolderIsAnError() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("--config", folder.path, "trips")
        #expect(r.exitCode == 64)
        #expect(r.stderr == "trip: config: \"\(folder.path)\" is a folder; give the config file itself, e.g. \"\(folder.path)/config.toml\"\n")
        let env = TripProcess(ledgerPath: trip.ledgerPath, extra: ["TRIP_CONFIG": folder.path])
        #expect(try env.run("trips").exitCode == 64)
    }

    @Test func aKeyGivenTwiceIsAnErrorWithFileAndLine() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let config = folder.file("config.toml")
        try "home_currency = \"EUR\"\n[preset.MINE]\ntax = \"10%\"\n# again\ntax = \"8%\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try trip.run("--config", config, "trips")
        #expect(r.exitCode == 65)
        #expect(r.stderr == "trip: config: \(config):5: tax is given twice in [preset.MINE]; first on line 3\n")
    }

    // MARK: closed trips and rates sync

    @Test func showSaysWhenATripIsClosed() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        #expect(try !trip.run("show").stdout.contains("closed"))
        try #require(trip.run("close").exitCode == 0)
        let show = try trip.run("show")
        #expect(show.stdout.contains("  closed          2026-03-02 (purchases and conversions frozen; `trip reopen` undoes it)"))
    }

    @Test func closingWithProvisionalOrUnconvertedPurchasesWarnsAndNamesThem() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("add", "1200").exitCode == 0)  // #1: fallback rate, provisional
        try #require(trip.run("add", "10", "USD").exitCode == 0)  // #2: home currency, final
        try #require(trip.run("add", "10", "BTN").exitCode == 0)  // #3: no rate at all
        let close = try trip.run("close")
        #expect(close.exitCode == 0)
        #expect(close.stdout == "Closed Japan on 2026-03-02.\n")
        #expect(
            close.stderr == "trip: warning: Japan is closed with 1 purchase at provisional rates (#1) and "
                + "1 unconverted purchase (#3); they stay so. To convert them first: `trip reopen`, `trip rates sync` "
                + "(or `trip rates set`), then `trip close` again\n")
        // A trip with only final conversions closes quietly.
        try #require(trip.run("new", "Home", "--currency", "USD").exitCode == 0)
        try #require(trip.run("add", "5").exitCode == 0)
        #expect(try trip.run("close").stderr.isEmpty)
    }

    @Test func aClosedTripsReportDoesNotSayRunRatesSync() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("add", "1200").exitCode == 0)
        #expect(try trip.run("report").stdout.contains("run `trip rates sync` when online"))
        try #require(trip.run("close").exitCode == 0)
        for format in ["text", "json", "markdown"] {
            let report = try trip.run("report", "--format", format).stdout
            #expect(!report.contains("rates sync` when online"), "\(format)")
            #expect(report.contains("1 purchase keeps its provisional rate: the trip was closed on 2026-03-02"), "\(format)")
        }
    }

    @Test func ratesSyncWithNothingToSyncSaysSoOffline() throws {
        let folder = TemporaryFolder()
        // A rate service that refuses every connection: any request would fail with 69.
        var trip = try japan(folder)
        trip.environment["TRIP_RATES_URL"] = "http://127.0.0.1:9"
        try #require(trip.run("rates", "set", "JPY", "0.0067").exitCode == 0)
        try #require(trip.run("add", "1200").exitCode == 0)  // manual rate: final
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(sync.stdout == "nothing to sync: no open trip in scope has provisional or unconverted purchases; no rates were fetched\n")
        let json = try trip.run("rates", "sync", "--all", "--format", "json")
        #expect(json.json["nothing_to_sync"] as? Bool == true)
        #expect(json.json["responses"] as? Int == 0)
        // With something provisional, it does go to the network (and fails here).
        try #require(trip.run("add", "10", "EUR").exitCode == 0)
        #expect(try trip.run("rates", "sync").exitCode == 69)
    }

    // MARK: help texts

    static let commands = [
        "init", "new", "trips", "use", "show", "rename", "close", "reopen", "delete", "add", "list",
        "edit", "rm", "convert", "rates set", "rates show", "rates status", "rates sync", "report",
        "config", "demo", "export", "import",
    ]

    @Test func helpTextsWrapAt80Columns() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for command in Self.commands {
            let help = try trip.run(["help"] + command.split(separator: " ").map(String.init))
            #expect(help.exitCode == 0)
            for line in help.stdout.split(separator: "\n") where line.count > 80 {
                Issue.record("trip \(command) --help: \(line.count) columns: \(line)")
            }
        }
    }

    @Test func formatHelpAndErrorsNameOnlyTheCommandsFormats() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        #expect(try !trip.run("list", "--help").stdout.contains("values: text, json, csv"))
        let xml = try trip.run("list", "--format", "xml")
        #expect(xml.exitCode == 64)
        #expect(xml.stderr == "trip: --format xml is not available for `list`; use text, json\n")
        let export = try trip.run("export", "--format", "text")
        #expect(export.stderr == "trip: --format text is not available for `export`; use csv, json, ledger, beancount\n")
    }
}
