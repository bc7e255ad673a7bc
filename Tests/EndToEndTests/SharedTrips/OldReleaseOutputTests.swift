import Foundation
import TestSupport
import Testing

/// What must not change (issue 35): the same bytes from `report`, `list` and `export` in every
/// format, from an older release and this one, on the demo trip, a group trip and a generated
/// ledger of a few thousand purchases.
///
/// Each ledger is written by the older release (9884232, as `OldReleaseCompatibilityTests`), then
/// copied: the older release reads one copy, this one another (which it migrates first: a ledger
/// this release migrated may not open in the older one). The older release is built from the
/// project's own git history (`OldRelease`), so these run in `make test-long` only.
@Suite("Output: an older release and this one print the same bytes", .serialized, .enabled(if: HardeningScale.isLong))
struct OldReleaseOutputTests {
    static let release = OldReleaseCompatibilityTests.schema8

    /// Every read compared: each report variant in each report format, each list in each list
    /// format, each export in each export format.
    static func reads(group: Bool) -> [[String]] {
        var variants: [[String]] = [
            [], ["--lines"], ["--by", "day"], ["--by", "currency"], ["--by", "payment"], ["--by", "none"],
            ["--home", "GBP"], ["--all"], ["--since", "2026-03-03", "--until", "2026-03-05"],
        ]
        if group { variants += [["--by", "member"], ["--member", "Ana"], ["--member", "Ben", "--lines"]] }
        var reads: [[String]] = []
        for format in ["text", "json", "csv", "markdown", "html"] {
            reads += variants.map { ["report"] + $0 + ["--format", format] }
        }
        for format in ["text", "json"] {
            for variant in [[], ["--reverse"], ["--limit", "5"], ["--category", "food"], ["--since", "2026-03-04"]] {
                reads.append(["list"] + variant + ["--format", format])
            }
        }
        for format in ["csv", "json", "ledger", "beancount"] {
            reads += [["export", "--format", format], ["export", "--all", "--format", format]]
        }
        return reads
    }

    /// The first line where `a` and `b` differ, numbered from 1, with both versions.
    static func firstDifference(_ a: String, _ b: String) -> String {
        // By `isNewline`: "\r\n" (the CSV's line end) is one Character, never equal to "\n".
        let la = a.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let lb = b.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for i in 0..<max(la.count, lb.count) {
            let x = i < la.count ? String(la[i]) : "<end of output>"
            let y = i < lb.count ? String(lb[i]) : "<end of output>"
            if x != y { return "line \(i + 1):\n  \(release): \(x)\n  this:    \(y)" }
        }
        return "same lines; the bytes differ (line endings?)"
    }

    /// Copies the ledger the older release wrote at `path`, runs every read with each release on its
    /// own copy, and records every read whose bytes, stderr or exit differ.
    static func compareReads(of path: String, in folder: TemporaryFolder, today: String, group: Bool) throws {
        let oldCopy = folder.file("old.sqlite"), newCopy = folder.file("new.sqlite")
        try LedgerInspection.copy(path, to: oldCopy)
        try LedgerInspection.copy(path, to: newCopy)
        var old = TripProcess(ledgerPath: oldCopy, today: today)
        old.executable = try OldRelease.trip(release)
        let new = TripProcess(ledgerPath: newCopy, today: today)
        var compared = 0
        for args in reads(group: group) {
            let a = try old.run(args), b = try new.run(args)
            #expect(a.exitCode == 0 && !a.stdout.isEmpty, "\(release) \(args): exit \(a.exitCode): \(a.stderr)")
            #expect(
                a.exitCode == b.exitCode && a.stderr == b.stderr,
                "\(args): exit \(a.exitCode) then \(b.exitCode); stderr [\(a.stderr)] then [\(b.stderr)]")
            let same = a.stdout == b.stdout  // not inside #expect, which would print both outputs whole
            #expect(same, "trip \(args.joined(separator: " ")): \(firstDifference(a.stdout, b.stdout))")
            compared += 1
        }
        #expect(compared == reads(group: group).count)
    }

    /// Runs `args` with `trip` and requires it to succeed.
    static func must(_ trip: TripProcess, _ args: [String]) throws {
        let r = try trip.run(args)
        try #require(r.exitCode == 0, "\(args): \(r.stderr)")
    }

    /// The ledger `trip demo --keep` writes, as the older release writes it.
    @Test func theDemoTrip() throws {
        let folder = TemporaryFolder()
        var trip = TripProcess(ledgerPath: folder.file("unused.sqlite"), today: "2026-03-08")
        trip.executable = try OldRelease.trip(Self.release)
        let demo = try trip.run("demo", "--keep")
        try #require(demo.exitCode == 0, "\(demo.stderr)")
        let kept = try #require(
            demo.stdout.split(separator: "\n").last?.split(separator: " ").last.map(String.init), "\(demo.stdout)")
        try #require(kept.hasSuffix(".sqlite") && FileManager.default.fileExists(atPath: kept), "\(demo.stdout)")
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: kept).deletingLastPathComponent().path) }
        try LedgerInspection.copy(kept, to: folder.file("demo.sqlite"))
        try Self.compareReads(of: folder.file("demo.sqlite"), in: folder, today: "2026-03-08", group: false)
    }

    /// A group trip: payers, shares in every form, an itemised bill, refunds, a transfer.
    @Test func aGroupTrip() throws {
        let folder = TemporaryFolder()
        var trip = TripProcess(ledgerPath: folder.file("group.sqlite"), today: "2026-03-06")
        trip.executable = try OldRelease.trip(Self.release)
        for args in [
            ["init", "--home", "EUR"],
            ["new", "Lisbon", "--currency", "EUR", "--home", "EUR", "--start", "2026-03-01", "--budget", "900"],
            ["member", "add", "Ana", "Ben", "Cleo"],
            ["add", "30", "lunch", "-c", "food", "--paid-by", "Ana", "--date", "2026-03-02"],
            ["add", "12.50", "taxi", "-c", "transport", "--paid-by", "Ben", "--split", "ana,ben", "--date", "2026-03-02"],
            ["add", "240", "hotel", "-c", "lodging", "--paid-by", "Cleo", "--split", "ana=2,ben=1,cleo=1", "--date", "2026-03-03"],
            ["add", "64.30", "dinner", "-c", "food", "--paid-by", "Ana=40,Ben=rest", "--split", "ana=60%,ben=40%", "--date", "2026-03-04"],
            ["add", "45", "groceries", "-c", "food", "--paid-by", "Ben", "--items", "Ana=20,Ben=15,Cleo=rest", "--date", "2026-03-04"],
            ["add", "3000", "JPY", "souvenir", "--paid-by", "Cleo", "--split", "cleo", "--charged", "18.90", "--date", "2026-03-05"],
            ["add", "20", "GBP", "museum", "--paid-by", "Ana", "--rate", "1.17", "--date", "2026-03-05", "--paid-with", "card"],
            ["refund", "6", "1000", "--charged", "6.30"],
            ["refund", "1", "--date", "2026-03-06"],
            ["transfer", "Ben", "Ana", "10"],
        ] {
            try Self.must(trip, args)
        }
        try Self.compareReads(of: trip.ledgerPath, in: folder, today: "2026-03-06", group: true)
    }

    /// A generated ledger: a solo trip and a group trip with 3,000 purchases (`TRIP_OUTPUT_PURCHASES`
    /// sets another number) in five currencies, rates set by hand, charged amounts, refunds,
    /// credits and splits.
    @Test func aGeneratedLedger() throws {
        let folder = TemporaryFolder()
        var trip = TripProcess(ledgerPath: folder.file("generated.sqlite"), today: "2026-03-28")
        trip.executable = try OldRelease.trip(Self.release)
        var random = SplitMix64(seed: 35)
        try Self.must(trip, ["init", "--home", "EUR"])
        try Self.must(trip, ["new", "Tokyo", "--currency", "JPY", "--home", "EUR", "--start", "2026-03-01"])
        try Self.must(trip, ["new", "Road trip", "--currency", "USD", "--home", "EUR", "--start", "2026-03-01"])
        try Self.must(trip, ["member", "add", "Ana", "Ben", "Cleo", "--trip", "Road trip"])
        for (currency, rate, date) in [
            ("JPY", "0.0061", "2026-03-01"), ("JPY", "0.00615", "2026-03-10"), ("USD", "0.92", "2026-03-01"),
            ("USD", "0.925", "2026-03-15"), ("GBP", "1.17", "2026-03-01"), ("CHF", "1.04", "2026-03-01"),
        ] {
            try Self.must(trip, ["rates", "set", currency, rate, "--in", "EUR", "--date", date])
        }
        let count = Int(ProcessInfo.processInfo.environment["TRIP_OUTPUT_PURCHASES"] ?? "") ?? 3_000
        let categories = ["food", "transport", "lodging", "fun", "shopping"]
        let payments = ["cash", "card", "revolut"]
        var id = 0
        for i in 0..<count {
            let road = i % 3 == 2
            let currency = road ? ["USD", "USD", "EUR", "CHF"][i % 4] : ["JPY", "JPY", "JPY", "GBP", "EUR"][i % 5]
            let cents = Int.random(in: 100...30_000, using: &random)
            let amount = currency == "JPY" ? "\(cents * 3)" : "\(cents / 100).\(String(format: "%02d", cents % 100))"
            var args = [
                "add", amount, currency, "item \(i)", "--trip", road ? "Road trip" : "Tokyo", "--date",
                "2026-03-\(String(format: "%02d", 1 + i % 28))", "-c", categories[i % categories.count],
            ]
            if i % 4 == 0 { args += ["--paid-with", payments[i % payments.count]] }
            if i % 7 == 3 && currency != "EUR" { args += ["--charged", "\(cents / 90).\(String(format: "%02d", cents % 97))"] }
            if i % 11 == 5 && currency != "EUR" { args += ["--rate", currency == "JPY" ? "0.0062" : "1.1"] }
            if i % 13 == 6 { args += ["--tip", "10%"] }
            if i % 17 == 8 { args += ["--tax", "8%", "--tax-included"] }
            if road {
                args += ["--paid-by", ["Ana", "Ben", "Cleo"][i % 3]]
                switch i % 5 {
                case 0: args += ["--split", "ana,ben"]
                case 1: args += ["--split", "ana=2,ben=1,cleo=1"]
                case 2: args += ["--split", "ana=50%,ben=30%,cleo=20%"]
                default: break
                }
            }
            try Self.must(trip, args)
            id += 1
            if i % 25 == 10 {
                try Self.must(trip, ["refund", String(id)] + (i % 2 == 0 ? [] : [currency == "JPY" ? "100" : "1.00"]))
                id += 1
            }
            if i % 97 == 40 {
                try Self.must(trip, ["add", "15", "--refund", "cashback \(i)", "--trip", "Tokyo", "--date", "2026-03-20"])
                id += 1
            }
        }
        try Self.must(trip, ["transfer", "Cleo", "Ana", "25", "--trip", "Road trip"])
        try Self.must(trip, ["use", "Road trip"])
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == id)
        try Self.compareReads(of: trip.ledgerPath, in: folder, today: "2026-03-28", group: true)
    }
}
