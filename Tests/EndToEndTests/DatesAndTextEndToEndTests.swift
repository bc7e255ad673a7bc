import Foundation
import TestSupport
import Testing

/// Issue 10, group 4: dates as people type them, names compared the way people read them, and a
/// report table that fits the terminal. Through the built `trip` binary.
@Suite("End to end: dates and text")
struct DatesAndTextEndToEndTests {
    /// A ledger with trip "Japan" (JPY→USD, 2026-03-01…2026-03-20) and a manual rate; today is
    /// Wednesday 2026-03-11.
    func japan(_ folder: TemporaryFolder, config: String? = nil) throws -> TripProcess {
        var extra: [String: String] = [:]
        if let config {
            let path = folder.file("config.toml")
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            extra["TRIP_CONFIG"] = path
        }
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-11", extra: extra)
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--start", "2026-03-01", "--end", "2026-03-20").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-02-01").exitCode == 0)
        return trip
    }

    func dateOfAdd(_ trip: TripProcess, _ date: String) throws -> String? {
        let r = try trip.run("add", "100", "--date", date, "--format", "json")
        return r.exitCode == 0 ? r.json["date"] as? String : nil
    }

    @Test(arguments: [
        ("today", "2026-03-11"), ("yesterday", "2026-03-10"), ("tomorrow", "2026-03-12"), ("-2", "2026-03-09"),
        ("-0", "2026-03-11"), ("mon", "2026-03-09"), ("Monday", "2026-03-09"), ("wed", "2026-03-11"),
        ("thu", "2026-03-05"), ("sun", "2026-03-08"), (" Today ", "2026-03-11"), ("2026-03-04", "2026-03-04"),
    ])
    func relativeAndShortDatesAreReadAgainstToday(text: String, expected: String) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        #expect(try dateOfAdd(trip, text) == expected)
    }

    @Test func anAmbiguousSlashDateIsRefusedWithBothReadingsUntilADateOrderIsSet() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "100", "--date", "3/5")
        #expect(r.exitCode == 65)
        #expect(
            r.stderr == """
                trip: date: "3/5" is ambiguous: day/month 2026-05-03 or month/day 2026-03-05; type 2026-05-03 or \
                2026-03-05 instead, or set date_order = "dmy", "mdy" or "ymd" in your config\n
                """)
        let one = try trip.run("add", "100", "--date", "13/3")
        #expect(one.exitCode == 65)
        #expect(one.stderr.hasPrefix("trip: date: \"13/3\" needs a date order (it reads as day/month 2026-03-13); type 2026-03-13 instead"))
        #expect((try trip.run("list", "--format", "json").json["purchases"] as? [Any])?.isEmpty == true)

        let dmyFolder = TemporaryFolder(), mdyFolder = TemporaryFolder()
        let dmy = try japan(dmyFolder, config: "date_order = \"dmy\"\n")
        #expect(try dateOfAdd(dmy, "3/5") == "2026-05-03")
        #expect(try dateOfAdd(dmy, "3/5/2026") == "2026-05-03")
        #expect(try dateOfAdd(dmy, "13/3") == "2026-03-13")
        #expect(try dateOfAdd(dmy, "3/13") == nil)  // no 13th month when day comes first
        #expect(try dateOfAdd(dmy, "2026/3/13") == "2026-03-13")  // a year first is read year/month/day
        let mdy = try japan(mdyFolder, config: "date_order = \"mdy\"\n")
        #expect(try dateOfAdd(mdy, "3/5") == "2026-03-05")
        #expect(try dateOfAdd(mdy, "3/5/2026") == "2026-03-05")
        #expect(try mdy.run("report", "--since", "3/1", "--until", "3/31").exitCode == 0)
    }

    @Test func everyCommandThatReadsADateReadsRelativeDates() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("add", "100", "--date", "yesterday").exitCode == 0)
        #expect(try trip.run("rates", "set", "JPY", "0.0068", "--date", "-1").exitCode == 0)
        #expect(try trip.run("convert", "100", "JPY", "--date", "mon").exitCode == 0)
        let list = try trip.run("list", "--since", "-3", "--until", "today", "--format", "json")
        #expect((list.json["purchases"] as? [Any])?.count == 1)
        let report = try trip.run("report", "--since", "-7", "--format", "json")
        #expect(report.json["since"] as? String == "2026-03-04")
        #expect(try trip.run("new", "Later", "--start", "tomorrow", "--end", "-0").exitCode == 65)
    }

    @Test func anEndBeforeTheStartIsNamedAsSuch() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        let r = try trip.run("new", "Japan", "--start", "2026-03-10", "--end", "2026-03-01")
        #expect(r.exitCode == 65)
        #expect(r.stderr == "trip: end: \"2026-03-01\" is before the start 2026-03-10\n")
        #expect(try trip.run("trips").stdout.contains("No trips yet"))
    }

    @Test(arguments: [["report"], ["list"]])
    func sinceAfterUntilIsAUsageError(command: [String]) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run(command + ["--since", "2026-03-10", "--until", "2026-03-01"])
        #expect(r.exitCode == 64)
        #expect(r.stderr == "trip: until: \"2026-03-01\" is before --since 2026-03-10\n")
    }

    @Test func aPurchaseOutsideItsTripsDatesIsAcceptedWithAWarning() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let before = try trip.run("add", "100", "--date", "2026-02-27")
        #expect(before.exitCode == 0)
        #expect(before.stderr == "warning: #1 is dated 2026-02-27, before Japan starts on 2026-03-01\n")
        let inside = try trip.run("add", "100", "--date", "2026-03-05")
        #expect(inside.exitCode == 0)
        #expect(inside.stderr.isEmpty)
        let edited = try trip.run("edit", "2", "--date", "2026-03-21")
        #expect(edited.exitCode == 0)
        #expect(edited.stderr == "warning: #2 is dated 2026-03-21, after Japan ends on 2026-03-20\n")
    }

    @Test func categoriesAndPaymentMethodsAreTrimmedCollapsedAndFolded() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let decomposed = "Cafe\u{301}   Bar"  // e + combining acute: NFD
        for (category, paid) in [("  Food ", " Visa  Card"), ("FOOD", "visa card"), (decomposed, "VISA card"), ("café bar", "visa card")] {
            try #require(trip.run("add", "100", "--category", category, "--paid-with", paid).exitCode == 0)
        }
        let purchases = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(purchases.map { $0["category"] as? String } == ["food", "food", "caf\u{e9} bar", "caf\u{e9} bar"])
        #expect(Set(purchases.compactMap { $0["paid_with"] as? String }) == ["visa card"])
        // Stored as one NFC spelling, so SQL groups them: two categories, not four.
        let report = try trip.run("report", "--format", "json")
        let groups = try #require(report.json["groups"] as? [[String: Any]])
        #expect(groups.count == 2)
        #expect((try trip.run("list", "--category", " FOOD ", "--format", "json").json["purchases"] as? [Any])?.count == 2)
    }

    @Test func aTripNameDifferingOnlyByWidthCaseOrSpacingIsRefusedWithTheExistingName() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        for name in ["Ｊａｐａｎ", "JAPAN", "  japan  "] {
            let r = try trip.run("new", name, "--currency", "JPY")
            #expect(r.exitCode == 65)
            #expect(r.stderr == "trip: name: a trip named \"Japan\" already exists\n")
        }
        try #require(trip.run("new", "  Korea   2026 ", "--currency", "KRW").exitCode == 0)
        #expect(try trip.run("trips").stdout.contains("Korea 2026  KRW→USD"))
        #expect(try trip.run("rename", "Korea 2026", "ｊａｐａｎ").exitCode == 65)
        // Looking a trip up folds the same way.
        #expect(try trip.run("use", "Ｊａｐａｎ").exitCode == 0)
    }

    @Test func aLongCategoryIsCutWithAnEllipsisToTheTerminalWidth() throws {
        let folder = TemporaryFolder()
        var trip = try japan(folder)
        let long = "souvenirs for the whole extended family and the neighbours and their dog"
        try #require(trip.run("add", "1200", "--category", long).exitCode == 0)
        try #require(trip.run("add", "800", "--category", "food").exitCode == 0)
        for columns in [60, 80] {
            trip.environment["COLUMNS"] = String(columns)
            let r = try trip.run("report")
            #expect(r.exitCode == 0)
            let section = r.stdout.components(separatedBy: "By category\n")[1].components(separatedBy: "\n\n")[0]
            for line in section.split(separator: "\n") {
                #expect(line.count <= columns, "\(line)")
            }
            #expect(section.contains("souvenirs for the"))
            #expect(section.contains("…"))
            #expect(!section.contains(long))
        }
        trip.environment["COLUMNS"] = "200"
        #expect(try trip.run("report").stdout.contains(long))
    }
}
