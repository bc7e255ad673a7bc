import Foundation
import TestSupport
import Testing

/// `trip report --member NAME` with every other option: `--home`, `--all`, `--lines` and each
/// format, on worked examples. The lines of a member's report are their parts, and add up exactly
/// to its total.
@Suite("End to end: a member's own report")
struct MemberReportEndToEndTests {
    /// Ana, Ben and Carla in Singapore (1 SGD = 0.74 USD = 0.68 EUR); Ben and Dan in Bali (home
    /// USD); a trip without members.
    ///
    /// Ben's shares in Singapore: dinner S$100.00 (home 74.00) split three ways → 33.33, home
    /// 24.67 (24.67, 24.67, 24.66); taxi S$10.00 (home 7.40) split ana=2,ben=1 → 3.33, home 2.47
    /// (4.93 and 2.47: the left-over cent goes to Ben's larger remainder); a refund of S$30.00
    /// of the dinner (home 22.20) → −10.00, home −7.40; a ger camp of MNT 5,000.00 with no rate,
    /// split with Carla → MNT 2,500.00, unconverted. Net: 24.67 + 2.47 − 7.40 = 19.74.
    static func trips() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let steps: [[String]] = [
            ["init", "--home", "USD"], ["new", "Sing", "--currency", "SGD"],
            ["rates", "set", "SGD", "0.74", "--date", "2026-03-01"],
            ["rates", "set", "SGD", "0.68", "--in", "EUR", "--date", "2026-03-01"],
            ["member", "add", "Ana", "Ben", "Carla"], ["whoami", "Ana"],
            ["add", "100", "dinner", "--date", "2026-03-01"],
            ["add", "10", "taxi", "--split", "ana=2,ben=1", "--date", "2026-03-01"],
            ["refund", "1", "30", "--date", "2026-03-02"],
            ["add", "5000", "MNT", "ger camp", "--split", "ben,carla", "--date", "2026-03-02"],
            ["new", "Bali", "--currency", "USD", "--home", "USD"], ["member", "add", "Ben", "Dan", "--trip", "Bali"],
            ["add", "20", "lunch", "--trip", "Bali", "--paid-by", "ben", "--date", "2026-03-02"],
            ["new", "Solo", "--currency", "USD", "--home", "USD"], ["add", "5", "coffee", "--trip", "Solo"],
            ["use", "Sing"],
        ]
        for args in steps {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    static func net(_ report: [String: Any]) -> String? { (report["totals"] as? [String: Any])?["net"] as? String }

    static func cents(_ text: String) -> Int { Int(text.replacingOccurrences(of: ".", with: ""))! }

    @Test func linesAreTheMembersPartsAndAddUpToTheTotal() throws {
        let (folder, trip) = try Self.trips()
        defer { withExtendedLifetime(folder) {} }
        let json = try trip.run("report", "--member", "ben", "--lines", "--format", "json")
        #expect(json.exitCode == 0, "\(json.stderr)")
        #expect(Self.net(json.json) == "19.74")
        #expect(json.json["lines"] == nil)
        let lines = try #require(json.json["member_lines"] as? [[String: Any]])
        #expect(
            lines.map { "\($0["note"]!) \($0["portion"]!) \($0["share"]!) \($0["home_share"]!)" }
                == ["dinner 1/3 33.33 24.67", "taxi 1/3 3.33 2.47", "dinner 1/3 -10.00 -7.40", "ger camp 1/2 2500.00 <null>"])
        #expect(lines.compactMap { $0["home_share"] as? String }.map(Self.cents).reduce(0, +) == 1974)

        let csv = try trip.run("report", "--member", "Ben", "--format", "csv")
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(
            rows[0] == [
                "id", "trip", "member", "date", "note", "category", "kind", "currency", "total", "portion", "share",
                "home_currency", "home_total", "home_share", "rate_source", "provisional",
            ])
        #expect(
            rows[1] == [
                "1", "Sing", "Ben", "2026-03-01", "dinner", "", "purchase", "SGD", "100.00", "1/3", "33.33", "USD",
                "74.00", "24.67", "manual", "false",
            ])
        #expect(rows[3][6...8] == ["refund", "SGD", "-30.00"])
        #expect(rows.dropFirst().compactMap { $0[13].isEmpty ? nil : Self.cents($0[13]) }.reduce(0, +) == 1974)

        let text = try trip.run("report", "--member", "ben", "--lines")
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Ben's part of each purchase (USD):\n"))
        #expect(
            text.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  #2  2026-03-01") && $0.contains("SGD 10.00  1/3")
                    && $0.hasSuffix("SGD 3.33   2.47  taxi")
            }, "\(text.stdout)")
        #expect(text.stdout.hasSuffix("total  19.74\n"), "\(text.stdout)")
        for format in ["markdown", "html"] {
            let r = try trip.run("report", "--member", "ben", "--lines", "--format", format)
            #expect(r.exitCode == 0)
            #expect(
                r.stdout.contains("part of each purchase") && r.stdout.contains("24.67") && r.stdout.contains("19.74"),
                "\(format): \(r.stdout)")
        }
        // The three members' lines add up to the trip's report.
        var sum = 0
        for name in ["ana", "ben", "carla"] {
            let r = try trip.run("report", "--member", name, "--lines", "--format", "json").json
            sum += ((r["member_lines"] as? [[String: Any]]) ?? []).compactMap { $0["home_share"] as? String }.map(Self.cents).reduce(0, +)
        }
        #expect(sum == Self.cents(try #require(Self.net(try trip.run("report", "--format", "json").json))))
    }

    /// `--home EUR`: each purchase converted again at 0.68, then divided like its split: dinner
    /// 68.00 → 22.67; taxi 6.80 → 2.27 (Ana 4.53); the refund 20.40 → −6.80. Net 18.14.
    @Test func homeReexpressesTheMembersParts() throws {
        let (folder, trip) = try Self.trips()
        defer { withExtendedLifetime(folder) {} }
        let r = try trip.run("report", "--member", "ben", "--home", "EUR", "--lines", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["home_currency"] as? String == "EUR")
        #expect(r.json["reexpressed"] as? Bool == true)
        #expect(Self.net(r.json) == "18.14")
        let lines = try #require(r.json["member_lines"] as? [[String: Any]])
        #expect(lines.map { "\($0["home_total"]!) \($0["home_share"]!)" } == ["68.00 22.67", "6.80 2.27", "-20.40 -6.80", "<null> <null>"])
        let ana = try trip.run("report", "--member", "ana", "--home", "EUR", "--format", "json")
        #expect(Self.net(ana.json) == "20.40")  // 22.67 + 4.53 − 6.80
        // The trip's own home currency is no re-expression.
        let usd = try trip.run("report", "--member", "ben", "--home", "USD", "--format", "json")
        #expect(usd.exitCode == 0 && Self.net(usd.json) == "19.74" && usd.json["reexpressed"] as? Bool == false)
        let csv = try trip.run("report", "--member", "ben", "--home", "EUR", "--format", "csv")
        #expect(csv.stdout.split(separator: "\r\n")[1].hasSuffix(",EUR,68.00,22.67,manual,false"))
    }

    /// `--all --member`: the member's report in every trip where they are a member.
    @Test func allGivesTheMembersReportInEachOfTheirTrips() throws {
        let (folder, trip) = try Self.trips()
        defer { withExtendedLifetime(folder) {} }
        let r = try trip.run("report", "--all", "--member", "ben", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let reports = try #require(r.json["reports"] as? [[String: Any]])
        #expect(reports.map { ($0["trip"] as? [String: Any])?["name"] as? String } == ["Sing", "Bali"])
        #expect(reports.map(Self.net) == ["19.74", "10.00"])
        let csv = try trip.run("report", "--all", "--member", "ben", "--format", "csv")
        #expect(
            csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",").prefix(3).joined(separator: ",") }
                == ["id,trip,member", "1,Sing,Ben", "2,Sing,Ben", "3,Sing,Ben", "4,Sing,Ben", "5,Bali,Ben"])
        let nobody = try trip.run("report", "--all", "--member", "Zed")
        #expect(nobody.exitCode == 65)
        #expect(nobody.stderr == "trip: member: \"Zed\" is not a member of any trip\n")
        #expect(nobody.stdout.isEmpty)
    }
}
