import Foundation
import TestSupport
import Testing

/// Issue 10, group 1: money that came out wrong, each checked through the built `trip` binary.
@Suite("End to end: money that came out wrong")
struct MoneyDefectsEndToEndTests {
    static let header = """
        id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,\
        tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,\
        rate_fetched_at,provisional,home_currency,home_total,charged
        """

    func usdTrip() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "US", "--currency", "USD", "--home", "USD").exitCode == 0)
        return (folder, trip)
    }

    // MARK: - trip edit drops what the user typed

    @Test(arguments: ["none", "GB", "SG"])
    func editWithAnotherPresetKeepsTheFlagsGivenAtAdd(preset: String) throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        let added = try trip.run(
            "add", "24.50", "SGD", "taxi", "--tip", "2", "--discount", "1", "--rate", "0.75",
            "--format", "json"
        ).json
        #expect(added["tip"] as? String == "2.00")
        let r = try trip.run("edit", "1", "--preset", preset, "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["tip_spec"] as? String == "2")
        #expect(r.json["tip"] as? String == "2.00")
        #expect(r.json["discount_spec"] as? String == "1")
        #expect(r.json["discount"] as? String == "1.00")
        #expect(r.json["preset"] as? String == (preset == "none" ? nil : preset))
    }

    @Test func aPresetFillsOnlyTheFieldsNotGivenByFlag() throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        // SG gives 10% service and 9% tax; the typed 5% service stays through every preset change.
        let added = try trip.run("add", "100", "SGD", "--preset", "SG", "--service", "5%", "--rate", "0.75", "--format", "json")
            .json
        #expect(added["service_spec"] as? String == "5%")
        #expect(added["tax_spec"] as? String == "9%")
        let none = try trip.run("edit", "1", "--preset", "none", "--format", "json").json
        #expect(none["service_spec"] as? String == "5%")
        #expect(none["tax_spec"] == nil || none["tax_spec"] is NSNull)
        let gb = try trip.run("edit", "1", "--preset", "GB", "--format", "json").json
        #expect(gb["service_spec"] as? String == "5%")
        #expect(gb["tax_spec"] as? String == "20%")
        #expect(gb["tax_included"] as? Bool == true)
        // A later flag on edit is explicit too; an edit of another field keeps everything.
        try #require(trip.run("edit", "1", "--tax", "7%").exitCode == 0)
        let sg = try trip.run("edit", "1", "--preset", "SG", "--format", "json").json
        #expect(sg["service_spec"] as? String == "5%")
        #expect(sg["tax_spec"] as? String == "7%")
        #expect(sg["tax_included"] as? Bool == false)
        let noted = try trip.run("edit", "1", "--note", "crab", "--format", "json").json
        #expect(noted["service_spec"] as? String == "5%")
        #expect(noted["tax_spec"] as? String == "7%")
    }

    /// The export carries the specs and the preset; a field whose spec differs from its preset's
    /// was explicit, so an imported purchase keeps it through a later preset change.
    @Test func explicitFieldsSurviveExportAndImport() throws {
        let (folder, trip) = try usdTrip()
        try #require(trip.run("add", "24.50", "SGD", "taxi", "--tip", "2", "--rate", "0.75").exitCode == 0)
        try #require(trip.run("add", "100", "SGD", "--preset", "SG", "--service", "5%", "--rate", "0.75").exitCode == 0)
        let csv = try trip.run("export", "--format", "csv")
        try #require(csv.exitCode == 0)
        let path = folder.file("out.csv")
        try csv.stdout.write(toFile: path, atomically: true, encoding: .utf8)

        let other = TripProcess(ledgerPath: folder.file("other.sqlite"))
        try #require(other.run("init", "--home", "USD").exitCode == 0)
        try #require(other.run("new", "US", "--currency", "USD", "--home", "USD").exitCode == 0)
        let imported = try other.run("import", path)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let taxi = try other.run("edit", "1", "--preset", "GB", "--format", "json").json
        #expect(taxi["tip_spec"] as? String == "2")
        #expect(taxi["tax_spec"] as? String == "20%")
        let dinner = try other.run("edit", "2", "--preset", "none", "--format", "json").json
        #expect(dinner["service_spec"] as? String == "5%")
        #expect(dinner["tax_spec"] == nil || dinner["tax_spec"] is NSNull)
    }

    // MARK: - A trip's default preset is applied to every currency

    @Test func aTripsDefaultPresetAppliesOnlyToItsCurrency() throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        try #require(trip.run("new", "Singapore", "--currency", "SGD", "--home", "USD", "--preset", "SG").exitCode == 0)
        let ramen = try trip.run("add", "1200", "JPY", "ramen", "--rate", "0.0067", "--format", "json").json
        #expect(ramen["service"] as? String == "0")
        #expect(ramen["tax"] as? String == "0")
        #expect(ramen["total"] as? String == "1200")
        #expect(ramen["preset"] is NSNull)
        let crab = try trip.run("add", "25", "crab", "--rate", "0.75")
        #expect(crab.stdout.contains("preset       SG (the trip's default for SGD)"), "\(crab.stdout)")
        #expect(crab.stdout.contains("total        SGD 29.98"))

        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD", "--preset", "JP").exitCode == 0)
        let insurance = try trip.run("add", "890", "EUR", "insurance", "--rate", "1.1")
        #expect(!insurance.stdout.contains("tax"), "\(insurance.stdout)")
        #expect(!insurance.stdout.contains("preset"))
        let konbini = try trip.run("add", "1000", "konbini", "--format", "json").json
        #expect(konbini["preset"] as? String == "JP")
        #expect(konbini["tax"] as? String == "90")
    }

    @Test func oneDefaultPresetPerCurrencyChangedLater() throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        let created = try trip.run(
            "new", "Asia", "--currency", "JPY", "--home", "USD", "--preset", "JP", "--preset", "SG",
            "--format", "json")
        #expect(created.json["presets"] as? [String] == ["JP", "SG"])
        #expect(created.json["preset"] as? String == "JP")
        #expect(try trip.run("add", "1000", "JPY", "--format", "json").json["preset"] as? String == "JP")
        #expect(try trip.run("add", "25", "SGD", "--rate", "0.75", "--format", "json").json["preset"] as? String == "SG")
        #expect(try trip.run("add", "10", "USD", "--format", "json").json["preset"] is NSNull)

        let clash = try trip.run("new", "Clash", "--currency", "JPY", "--preset", "JP", "--preset", "JP-FOOD")
        #expect(clash.exitCode == 64)
        #expect(clash.stderr == "trip: preset: JP-FOOD and JP are both for JPY; a trip has one default preset per currency\n")

        let set = try trip.run("presets", "US-NY", "JP-FOOD")
        #expect(set.exitCode == 0, "\(set.stderr)")
        #expect(set.stdout == "Default presets of Asia: US-NY, JP-FOOD\n")
        let usd = try trip.run("add", "10", "USD", "--format", "json").json
        #expect(usd["preset"] as? String == "US-NY")
        #expect(usd["tax"] as? String == "0.89")
        #expect(try trip.run("add", "25", "SGD", "--rate", "0.75", "--format", "json").json["preset"] is NSNull)
        // Purchases already logged keep their preset; an edit in place does not re-apply the defaults.
        #expect(try trip.run("edit", "1", "--note", "ramen", "--format", "json").json["preset"] as? String == "JP")
        #expect(try trip.run("presets", "none").stdout == "Default presets of Asia: none\n")
        #expect(try trip.run("add", "10", "USD", "--format", "json").json["preset"] is NSNull)
    }

    /// Every preset shipped in config/presets.toml names its currency, and applies as a trip
    /// default to that currency only.
    @Test(arguments: [
        ("JP", "JPY", "EUR"), ("GB", "GBP", "USD"), ("DE", "EUR", "GBP"), ("US-NY", "USD", "CAD"),
        ("CA-ON", "CAD", "USD"), ("KR", "KRW", "JPY"), ("TH-DINE", "THB", "SGD"), ("NZ", "NZD", "AUD"),
    ])
    func everyShippedPresetKnowsItsCurrency(preset: String, own: String, other: String) throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        try #require(trip.run("new", "T", "--currency", own, "--home", "USD", "--preset", preset).exitCode == 0)
        let mine = try trip.run("add", "1000", own, "--rate", "0.5", "--format", "json")
        #expect(mine.json["preset"] as? String == preset, "\(mine.stderr)")
        let theirs = try trip.run("add", "1000", other, "--rate", "0.5", "--format", "json")
        #expect(theirs.json["preset"] is NSNull, "\(theirs.stderr)")
        #expect(theirs.json["tax"] as? String == theirs.json["service"] as? String)
    }

    // MARK: - One purchase can make every report fail

    @Test func amountsBeyondThePurchaseBoundAreRejectedAndReportsStillSum() throws {
        let (folder, trip) = try usdTrip()
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        for amount in ["92233720368547758.07", "10000000000.00", "9999999999.99+0.01", "50000000000000000"] {
            let r = try trip.run("add", amount, "USD")
            #expect(r.exitCode == 65, "\(amount): \(r.stdout)")
            #expect(r.stderr.hasPrefix("trip: amount: \""), "\(r.stderr)")
            #expect(r.stderr.hasSuffix("is too large; one purchase holds at most USD 9,999,999,999.99\n"))
        }
        // The bound applies to the total after service, tax and tip too.
        let tip = try trip.run("add", "9999999999.99", "USD", "--tip", "0.01")
        #expect(tip.exitCode == 65)
        #expect(tip.stderr == "trip: total: \"10000000000.00\" is too large; one purchase holds at most USD 9,999,999,999.99\n")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)

        // Exactly at the bound is accepted, and any number of such purchases still sum.
        for _ in 0..<3 { try #require(trip.run("add", "9999999999.99", "USD", "big").exitCode == 0) }
        let report = try trip.run("report", "--format", "json")
        #expect(report.exitCode == 0, "\(report.stderr)")
        #expect((report.json["totals"] as? [String: Any])?["net"] as? String == "29999999999.97")
        #expect(try trip.run("show").exitCode == 0)
        #expect(try trip.run("report", "--all").exitCode == 0)
    }

    @Test func editBeyondTheBoundChangesNothing() throws {
        let (folder, trip) = try usdTrip()
        try #require(trip.run("add", "20", "USD", "lunch").exitCode == 0)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("edit", "1", "--amount", "50000000000000000")
        #expect(r.exitCode == 65)
        #expect(
            r.stderr == "trip: amount: \"50000000000000000.00\" is too large; one purchase holds at most USD 9,999,999,999.99\n")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        #expect(try trip.run("edit", "1", "--amount", "9999999999.99").exitCode == 0)
    }

    /// A rate can be up to 10^10, so a small price can still convert beyond the bound.
    @Test func homeAmountBeyondTheBoundIsRejected() throws {
        let (folder, trip) = try usdTrip()
        try #require(trip.run("rates", "set", "JPY", "100000000").exitCode == 0)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("add", "100", "JPY")
        #expect(r.exitCode == 65)
        #expect(
            r.stderr == "trip: home amount: \"10000000000.00\" is too large; one purchase holds at most USD 9,999,999,999.99\n")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        // 99 JPY × 10^8 = USD 9,900,000,000.00 is inside.
        #expect(try trip.run("add", "99", "JPY").exitCode == 0)
    }

    /// A manual rate re-rates provisional purchases; it may not carry one past the bound either.
    @Test func aNewRateCannotCarryAStoredPurchasePastTheBound() throws {
        let (folder, trip) = try usdTrip()
        try #require(trip.run("add", "100", "JPY", "ramen").exitCode == 0)  // fallback rate, provisional
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("rates", "set", "JPY", "100000000")
        #expect(r.exitCode == 65)
        #expect(
            r.stderr
                == "trip: home amount of #1: \"10000000000.00\" is too large; one purchase holds at most USD 9,999,999,999.99\n")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        #expect(try trip.run("rates", "set", "JPY", "99000000").exitCode == 0)
        #expect(try trip.run("report").exitCode == 0)
    }

    @Test(arguments: ["9999999999.99", "10000000000.00"])
    func exportImportHonoursTheBound(price: String) throws {
        let (folder, trip) = try usdTrip()
        let path = folder.file("in.csv")
        let row =
            "1,US,2026-03-02,big,,,USD,\(price),\(price),0.00,,0.00,,0.00,,false,0.00,,\(price),half-up,,1,2026-03-02,"
            + "identity,,,false,USD,\(price),"
        try (Self.header + "\n" + row + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("import", path)
        if price == "9999999999.99" {
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(try trip.run("report").exitCode == 0)
        } else {
            #expect(r.exitCode == 65)
            #expect(r.stderr.contains("column price"), "\(r.stderr)")
            #expect(r.stderr.contains("is too large; one purchase holds at most USD 9,999,999,999.99"))
            #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        }
    }

    @Test func statementImportHonoursTheBound() throws {
        let (folder, trip) = try usdTrip()
        let path = folder.file("statement.csv")
        try "Date,Amount\n2026-03-01,9999999999.99\n2026-03-02,50000000000000000\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("column Amount"), "\(r.stderr)")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
    }

    // MARK: - trip rm prints minor units

    @Test func removeFormatsMoneyAndNamesTheNote() throws {
        let (folder, trip) = try usdTrip()
        defer { withExtendedLifetime(folder) {} }
        try #require(trip.run("add", "20", "USD", "lunch").exitCode == 0)
        try #require(trip.run("add", "890", "EUR", "insurance", "--rate", "1.1").exitCode == 0)
        try #require(trip.run("add", "1200", "JPY", "--rate", "0.0067").exitCode == 0)
        #expect(try trip.run("rm", "1").stdout == "Removed #1 (USD 20.00 on 2026-03-02 · lunch).\n")
        #expect(try trip.run("rm", "2").stdout == "Removed #2 (EUR 890.00 on 2026-03-02 · insurance).\n")
        #expect(try trip.run("rm", "3").stdout == "Removed #3 (JPY 1,200 on 2026-03-02).\n")
    }
}
