import Foundation
import TestSupport
import Testing

/// Group trips through the built binary: members, payers, splits, balances, transfers and the
/// settle-up, checked to the cent against worked examples and an independent calculation.
@Suite("End to end: group trips")
struct GroupTripEndToEndTests {
    /// Ana, Ben and Carla in Singapore at 1 SGD = 0.74 USD; Ben is this ledger's user.
    static func singapore() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [
            ["init", "--home", "USD"], ["new", "Sing", "--currency", "SGD"],
            ["rates", "set", "SGD", "0.74", "--date", "2026-03-01"], ["member", "add", "Ana", "Ben", "Carla"],
            ["whoami", "ben"],
        ] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    static func shares(_ json: [String: Any], _ key: String = "split", _ field: String = "share") -> [String] {
        ((json[key] as? [[String: Any]]) ?? []).map { "\($0["name"]!)=\($0[field]!)" }
    }

    @Test func workedExamplesAddUpToTheCent() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        // S$130 ++ = 155.87: 51.95 each and two cents left, to the earlier members; never 51.95 × 3.
        let dinner = try trip.run("add", "88+42", "dinner", "--preset", "SG", "--format", "json")
        #expect(dinner.exitCode == 0, "\(dinner.stderr)")
        #expect(Self.shares(dinner.json) == ["Ana=51.96", "Ben=51.96", "Carla=51.95"])
        // The home amount 115.34 (155.87 × 0.74 = 115.3438) is divided the same way: 38.45, 38.45, 38.44.
        #expect(Self.shares(dinner.json, "split", "home_share") == ["Ana=38.45", "Ben=38.45", "Carla=38.44"])
        // The default payer is whoami.
        #expect(Self.shares(dinner.json, "paid_by", "paid") == ["Ben=155.87"])

        let taxi = try trip.run(
            "add", "100", "SGD", "taxi", "--paid-by", "ana=30,ben=rest", "--split", "ana=2,ben=1",
            "--format", "json"
        ).json
        #expect(Self.shares(taxi, "paid_by", "paid") == ["Ana=30.00", "Ben=70.00"])
        #expect(Self.shares(taxi) == ["Ana=66.67", "Ben=33.33"])

        let museum = try trip.run(
            "add", "50", "USD", "museum", "--split", "ana=60%,ben=40%", "--paid-by", "carla",
            "--format", "json"
        ).json
        #expect(Self.shares(museum) == ["Ana=30.00", "Ben=20.00"])

        // Items: Ana 12.50 + 3 = 15.50, Ben the rest 14.50 of S$30; the 10% tip follows the items:
        // 33.00 × 15.5/30 = 17.05, 33.00 × 14.5/30 = 15.95.
        let hawker = try trip.run("add", "30", "--items", "ana=12.50,ben=8,ana=3,ben=rest", "--tip", "10%", "--format", "json").json
        #expect(Self.shares(hawker) == ["Ana=17.05", "Ben=15.95"])

        // Ana: paid 30 × 0.74 = 22.20; share 38.45 + 49.33 + 30.00 + 12.62 = 130.40.
        // (taxi home 74.00 → 49.33 / 24.67; hawker home 24.42 → 12.62 / 11.80.)
        let balances = try trip.run("balances", "--format", "json")
        #expect(balances.exitCode == 0, "\(balances.stderr)")
        let rows = try #require(balances.json["members"] as? [[String: Any]])
        #expect(
            rows.map { "\($0["name"]!) \($0["paid"]!) \($0["share"]!) \($0["balance"]!)" }
                == ["Ana 22.20 130.40 -108.20", "Ben 191.56 94.92 96.64", "Carla 50.00 38.44 11.56"])

        // Each member's own report is built from their shares; together they make the trip's.
        var nets: [String] = []
        for name in ["Ana", "ben", "Carla"] {
            let mine = try trip.run("report", "--member", name, "--format", "json")
            #expect(mine.exitCode == 0, "\(mine.stderr)")
            let totals = try #require(mine.json["totals"] as? [String: Any])
            nets.append(totals["net"] as! String)
            let groups = try #require(mine.json["by_category"] as? [[String: Any]])
            #expect(groups.map { $0["home_amount"] as! String } == [totals["net"] as! String])
        }
        #expect(nets == ["130.40", "94.92", "38.44"])
        let byMember = try trip.run("report", "--by", "member", "--format", "json").json
        #expect((byMember["totals"] as? [String: Any])?["net"] as? String == "263.76")
        #expect(
            (byMember["groups"] as? [[String: Any]])?.map { "\($0["key"]!) \($0["home_amount"]!) \($0["paid"]!)" }
                == ["Ana 130.40 22.20", "Ben 94.92 191.56", "Carla 38.44 50.00"])
        #expect(try trip.run("report", "--member", "zoe").exitCode == 65)

        // Carla pays Ana back 10: the settle-up takes it into account.
        #expect(try trip.run("transfer", "Carla", "Ana", "10").exitCode == 0)
        let settle = try trip.run("settle", "--format", "json").json
        let plan = try #require(settle["transfers"] as? [[String: Any]])
        #expect(plan.map { "\($0["from"]!)>\($0["to"]!) \($0["amount"]!)" } == ["Ana>Ben 96.64", "Ana>Carla 21.56"])

        let text = try trip.run("settle")
        #expect(text.stdout.contains("Ana pays Ben USD 96.64"))
        #expect(try trip.run("settle", "--record").exitCode == 0)
        let after = try trip.run("balances", "--format", "json").json
        #expect((after["members"] as? [[String: Any]])?.allSatisfy { $0["balance"] as? String == "0.00" } == true)
        #expect(try trip.run("settle").stdout.contains("is settled"))
    }

    @Test func balancesByCurrencyConvertNothing() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("add", "90", "dinner", "--paid-by", "ana").exitCode == 0)
        #expect(try trip.run("add", "10", "USD", "--paid-by", "ben", "--split", "ana,ben").exitCode == 0)
        let all = try #require(try trip.run("balances", "--by-currency", "--format", "json").json["by_currency"] as? [[String: Any]])
        let text = all.map { t in
            "\(t["currency"]!): " + ((t["members"] as? [[String: Any]]) ?? []).map { "\($0["balance"]!)" }.joined(separator: " ")
        }
        #expect(text == ["SGD: 60.00 -30.00 -30.00", "USD: -5.00 5.00 0.00"])
    }

    /// A transfer in a currency with no rate yet is left out of the balances, never 1:1, and is
    /// converted when a rate is set, like a purchase.
    @Test func aTransferWithoutARateWaitsAndIsReRated() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("add", "30", "USD", "--paid-by", "ana").exitCode == 0)
        // The Bangladeshi taka is not in the fallback table: no rate at all.
        let t = try trip.run("transfer", "Ben", "Ana", "1500", "BDT", "--format", "json")
        #expect(t.exitCode == 0, "\(t.stderr)")
        #expect(t.json["rate_source"] as? String == "none")
        let before = try trip.run("balances", "--format", "json").json
        let waiting = try #require(before["unconverted"] as? [[String: Any]])
        #expect(waiting.map { "\($0["currency"]!) \($0["transfers"]!) \($0["amount"]!)" } == ["BDT 1 1500.00"])
        #expect((before["members"] as? [[String: Any]])?.map { $0["balance"] as! String } == ["20.00", "-10.00", "-10.00"])
        #expect(try trip.run("rates", "set", "BDT", "0.031", "--in", "USD", "--date", "2026-03-01").exitCode == 0)
        let after = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        // 1500 × 0.031 = 46.50: Ben sent it, Ana received it.
        #expect(
            after.map { "\($0["name"]!) \($0["sent"]!) \($0["received"]!) \($0["balance"]!)" }
                == ["Ana 0.00 46.50 -26.50", "Ben 46.50 0.00 36.50", "Carla 0.00 0.00 -10.00"])
    }

    /// A refund is divided like the purchase it refunds; a credit like a purchase of money received.
    @Test func refundsAreDividedLikeThePurchaseTheyRefund() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        // US$90 paid by Ana, shared 2:1 by Ana and Ben: Ben owes 30.00.
        #expect(try trip.run("add", "90", "USD", "jacket", "--paid-by", "ana", "--split", "ana=2,ben=1").exitCode == 0)
        // US$30 back: Ana gets it, and Ben's part of it (10.00) is taken off what he owes.
        let refund = try trip.run("refund", "1", "30")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        let rows = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        #expect(
            rows.map { "\($0["name"]!) \($0["paid"]!) \($0["share"]!) \($0["balance"]!)" }
                == ["Ana 60.00 40.00 20.00", "Ben 0.00 20.00 -20.00", "Carla 0.00 0.00 0.00"])
        let ben = try trip.run("report", "--member", "Ben", "--format", "json").json
        #expect((ben["totals"] as? [String: Any])?["net"] as? String == "20.00")
        #expect((ben["totals"] as? [String: Any])?["refunds"] as? String == "10.00")
        // A credit of US$9 received by Carla for everyone: 3.00 each.
        #expect(try trip.run("add", "9", "USD", "--refund", "--paid-by", "carla").exitCode == 0)
        let after = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        #expect(after.map { $0["balance"] as! String } == ["23.00", "-17.00", "-6.00"])
    }

    @Test(
        "a bad split is one line, exit 65, and changes nothing",
        arguments: [
            ["--split", "ana=60%,ben=39%"], ["--split", "ana=60%,ben=41%"], ["--split", "zoe"], ["--paid-by", "zoe"],
            ["--items", "ana=5"], ["--items", "ana=5,ben=6"], ["--items", "ana=rest,ben=rest"], ["--paid-by", "ana=rest,ben=rest"],
            ["--split", "ana,ana"], ["--split", "ana=-1,ben=2"], ["--paid-by", "ana=4,ben=5"], ["--split", "ana=0,ben=0"],
        ])
    func badSplitsAreRefused(_ flags: [String]) throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        let r = try trip.run(["add", "10"] + flags)
        #expect(r.exitCode == 65, "\(flags): \(r.stderr)")
        #expect(r.stderr.hasPrefix("trip: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 0)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchase_splits") == 0)
    }

    @Test func aTripWithoutMembersBehavesAsBeforeAndRefusesSplits() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        #expect(try trip.run("new", "Solo", "--currency", "USD").exitCode == 0)
        let plain = try trip.run("add", "10", "--format", "json")
        #expect(plain.exitCode == 0)
        #expect(plain.json["split"] is NSNull)
        let r = try trip.run("add", "10", "--split", "all")
        #expect(r.exitCode == 64)
        #expect(r.stderr.contains("has no members"))
        #expect(try trip.run("balances").exitCode == 64)
    }

    @Test func membersJoinInOrderAndAreRemovedOnlyWhenNothingRefersToThem() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("member", "add", "ana").exitCode == 65)  // already a member, in any case
        #expect(try trip.run("add", "30", "--split", "ana,ben").exitCode == 0)
        // A member who joins later changes no earlier purchase.
        #expect(try trip.run("member", "add", "Dan").exitCode == 0)
        let list = try trip.run("members", "--format", "json").json
        #expect((list["members"] as? [[String: Any]])?.map { $0["name"] as! String } == ["Ana", "Ben", "Carla", "Dan"])
        let b = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        #expect(b.map { $0["share"] as! String } == ["11.10", "11.10", "0.00", "0.00"])

        let rm = try trip.run("member", "rm", "ana")
        #expect(rm.exitCode == 65)
        #expect(rm.stderr.contains("#1"), "\(rm.stderr)")
        #expect(try trip.run("member", "rm", "dan").exitCode == 0)
        #expect(try trip.run("member", "rename", "Ben", "Benjamin").exitCode == 0)
        let edited = try trip.run("edit", "1", "--split", "ana=1,benjamin=3", "--format", "json").json
        #expect(Self.shares(edited) == ["Ana=7.50", "Benjamin=22.50"])
        // An edit that does not name the split keeps it.
        let kept = try trip.run("edit", "1", "--amount", "40", "--format", "json").json
        #expect(Self.shares(kept) == ["Ana=10.00", "Benjamin=30.00"])
    }

    /// Several hundred purchases in four currencies with every kind of split, several payers and
    /// transfers, against an independent calculation in this test: the home amount rounded half-up
    /// from the manual rate, then floor shares plus leftover cents to the largest remainders,
    /// written out here again with plain integers.
    @Test func seededGroupTripMatchesAnIndependentCalculation() throws {
        let (folder, trip) = try Self.singapore()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("member", "add", "Dan", "Eve").exitCode == 0)
        for (code, rate) in [("JPY", "0.0067"), ("EUR", "1.085")] {
            #expect(try trip.run("rates", "set", code, rate, "--in", "USD", "--date", "2026-03-01").exitCode == 0)
        }
        let names = ["Ana", "Ben", "Carla", "Dan", "Eve"]
        // Currency, minor digits, and the home cents of an amount in its minor units (half-up).
        let currencies: [(String, Int, (Int64) -> Int64)] = [
            ("SGD", 2, { ($0 * 74 + 50) / 100 }), ("USD", 2, { $0 }),
            ("JPY", 0, { ($0 * 67 + 50) / 100 }), ("EUR", 2, { ($0 * 1085 + 500) / 1000 }),
        ]
        var rng = SplitMix64(seed: 0x6_2026)
        var expected = [Int64](repeating: 0, count: 5)

        func largestRemainder(_ total: Int64, _ weights: [Int64]) -> [Int64] {
            let w = weights.reduce(0, +)
            var parts = weights.map { total * $0 / w }
            let rems = weights.map { total * $0 % w }
            let order = weights.indices.sorted { rems[$0] != rems[$1] ? rems[$0] > rems[$1] : $0 < $1 }
            for i in order.prefix(Int(total - parts.reduce(0, +))) { parts[i] += 1 }
            return parts
        }
        func text(_ minor: Int64, _ digits: Int) -> String {
            digits == 0 ? "\(minor)" : "\(minor / 100).\(String(format: "%02d", minor % 100))"
        }
        let count = HardeningScale.isLong ? 400 : 200
        for n in 0..<count {
            let (code, digits, toHome) = currencies[n % 4]
            let minor = Int64.random(in: 1...50_000, using: &rng)
            var weights = names.map { _ in Int64.random(in: 0...3, using: &rng) }
            if weights.allSatisfy({ $0 == 0 }) { weights[n % 5] = 1 }
            let payer = Int.random(in: 0..<5, using: &rng)
            var args = ["add", text(minor, digits), code]
            if n % 2 == 0 {
                let second = (payer + 1) % 5
                let firstPays = Int64.random(in: 0...minor, using: &rng)
                args += ["--paid-by", "\(names[payer])=\(text(firstPays, digits)),\(names[second])=rest"]
                let home = toHome(minor)
                let paid = largestRemainder(home, [firstPays, minor - firstPays])
                expected[payer] += paid[0]
                expected[second] += paid[1]
            } else {
                args += ["--paid-by", names[payer]]
                expected[payer] += toHome(minor)
            }
            switch (n / 4) % 4 {
            case 0:  // equally among those named
                weights = weights.map { $0 > 0 ? 1 : 0 }
                args += ["--split", names.indices.filter { weights[$0] > 0 }.map { names[$0] }.joined(separator: ",")]
            case 1:  // shares
                args += ["--split", names.indices.map { "\(names[$0])=\(weights[$0])" }.joined(separator: ",")]
            case 2:  // percentages: 5 × weight (at most 60 in all), the last member taking what is left of 100
                var pct = weights.map { $0 * 5 }
                pct[4] = 100 - pct[0..<4].reduce(0, +)
                weights = pct
                args += ["--split", names.indices.map { "\(names[$0])=\(pct[$0])%" }.joined(separator: ",")]
            default:  // items: portions of the price, the last member taking the rest
                var portions = names.indices.map { _ in Int64.random(in: 0...(minor / 5), using: &rng) }
                portions[4] = minor - portions[0..<4].reduce(0, +)
                weights = portions
                args += ["--items", names.indices.map { "\(names[$0])=\(text(portions[$0], digits))" }.joined(separator: ",")]
            }
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
            for (i, s) in largestRemainder(toHome(minor), weights).enumerated() { expected[i] -= s }
            if n % 20 == 19 {
                let from = Int.random(in: 0..<5, using: &rng), to = (from + 2) % 5
                let t = Int64.random(in: 1...5_000, using: &rng)
                #expect(try trip.run("transfer", names[from], names[to], text(t, 2), "USD").exitCode == 0)
                expected[from] += t
                expected[to] -= t
            }
        }
        #expect(expected.reduce(0, +) == 0)
        let rows = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        let cents = rows.map { row -> Int64 in Int64((row["balance"] as! String).replacingOccurrences(of: ".", with: ""))! }
        #expect(cents == expected)
        let plan = try #require(try trip.run("settle", "--format", "json").json["transfers"] as? [[String: Any]])
        #expect(plan.count <= 4)
        #expect(try trip.run("settle", "--record").exitCode == 0)
        let after = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        #expect(after.allSatisfy { $0["balance"] as? String == "0.00" })
    }
}
