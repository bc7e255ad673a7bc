import Foundation
import TestSupport
import Testing

/// Group money that is right in every output (issue 27): report lines that add up in every
/// format, a payer that is never a guess, typed amounts that stay typed.
@Suite("End to end: group money in every output")
struct GroupMoneyEndToEndTests {
    /// A group trip in Japan, home USD at 0.0067: purchases (one over a thousand dollars, so
    /// grouping matters), a refund, a credit, a transfer and an unconverted purchase in MNT.
    static func trip() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let steps: [[String]] = [
            ["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"],
            ["rates", "set", "JPY", "0.0067", "--date", "2026-03-01"],
            ["member", "add", "Ana", "Ben", "Carla"], ["whoami", "Ana"],
            ["add", "200000", "hotel", "--date", "2026-03-01"],
            ["add", "12000", "jacket", "--paid-by", "ben", "--split", "ben", "--date", "2026-03-01"],
            ["add", "3333", "taxi", "--split", "ana=2,ben=1", "--date", "2026-03-01"],
            ["add", "1001", "snack", "--date", "2026-03-02"],
            ["refund", "2", "4000", "--date", "2026-03-02"],
            ["add", "1500", "tax-free", "--refund", "--date", "2026-03-02"],
            ["transfer", "Ben", "Ana", "5000", "JPY", "--date", "2026-03-02"],
            ["add", "5000", "MNT", "ger camp", "--date", "2026-03-02"],
        ]
        for args in steps {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    /// "1,340.00", "-26.80", "1,340.00 USD", "**9.30**" → cents.
    static func cents(_ text: some StringProtocol) -> Int? {
        let t = text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "*", with: "")
            .replacingOccurrences(of: " USD", with: "").trimmingCharacters(in: .whitespaces)
        guard t.contains(".") else { return nil }
        return Int(t.replacingOccurrences(of: ".", with: ""))
    }

    /// A text line's cells: runs of two or more spaces separate them.
    static func cells(_ line: some StringProtocol) -> [String] {
        String(line).components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The rows of the Markdown table under `heading`, each as its cells.
    static func markdownRows(_ md: String, under heading: String) -> [[String]] {
        let lines = md.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        return lines[(start + 4)...].prefix { $0.hasPrefix("|") }.map { row in
            row.dropFirst().dropLast().components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The cells of every `<tr>` of the HTML section whose heading is `heading`.
    static func htmlRows(_ html: String, under heading: String) -> [[String]] {
        guard let start = html.range(of: "<h2>\(heading)</h2>") else { return [] }
        let section = html[start.upperBound...].prefix { _ in true }
        let body = section.components(separatedBy: "</section>")[0]
        return body.components(separatedBy: "<tr").dropFirst().map { row in
            row.components(separatedBy: "<td").dropFirst().map { cell in
                let inner = cell.drop { $0 != ">" }.dropFirst()
                return String(inner.prefix { $0 != "<" })
            }
        }.filter { !$0.isEmpty }
    }

    @Test("Every format's lines add up to the total it prints, with --lines and with --member")
    func everyFormatsLinesAddUp() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        let json = try trip.run("report", "--lines", "--format", "json")
        try #require(json.exitCode == 0, "\(json.stderr)")
        let net = try #require(Self.cents((json.json["totals"] as? [String: Any])?["net"] as? String ?? ""))
        // 1,340.00 + 80.40 + 22.33 + 6.71 − 26.80 − 10.05; MNT has no rate.
        #expect(net == 1_412_59)

        // JSON: home_amount, signed by kind (README, "Money rules").
        let jsonLines = try #require(json.json["lines"] as? [[String: Any]])
        #expect(jsonLines.count == 7)
        let jsonSum = jsonLines.compactMap { l -> Int? in
            guard let h = l["home_amount"] as? String, let c = Self.cents(h) else { return nil }
            return (l["kind"] as? String == "purchase" ? 1 : -1) * c
        }.reduce(0, +)
        #expect(jsonSum == net)

        // Text: the list's home column, and the net total line.
        let text = try trip.run("report", "--lines")
        try #require(text.exitCode == 0, "\(text.stderr)")
        let textLines = text.stdout.split(separator: "\n")
        let textNet = try #require(textLines.first { $0.hasPrefix("  net total") }.flatMap { Self.cents(Self.cells($0)[1]) })
        let textRows = textLines.filter { $0.hasPrefix("#") }.map(Self.cells)
        #expect(textRows.count == 7)
        #expect(textRows.compactMap { Self.cents($0[3]) }.reduce(0, +) == textNet)
        #expect(textNet == net)

        // CSV: the signed home column; its kind column says what each line is.
        let csv = try trip.run("report", "--format", "csv")
        try #require(csv.exitCode == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let signed = try #require(rows[0].firstIndex(of: "signed_home_total"))
        let kind = try #require(rows[0].firstIndex(of: "kind"))
        #expect(rows.dropFirst().compactMap { Self.cents($0[signed]) }.reduce(0, +) == net)
        #expect(rows.dropFirst().map { $0[kind] }.sorted() == ["credit", "purchase", "purchase", "purchase", "purchase", "purchase", "refund"])

        // Markdown: the purchases table's last column, and the net total row.
        let md = try trip.run("report", "--lines", "--format", "markdown")
        try #require(md.exitCode == 0, "\(md.stderr)")
        let mdNet = try #require(
            md.stdout.components(separatedBy: "\n").first { $0.hasPrefix("| **net total**") }.flatMap {
                Self.cents($0.components(separatedBy: "|")[2])
            })
        let mdRows = Self.markdownRows(md.stdout, under: "### Purchases")
        #expect(mdRows.count == 7)
        #expect(mdRows.compactMap { Self.cents($0.last!) }.reduce(0, +) == mdNet)
        #expect(mdNet == net)
        #expect(mdRows.contains { $0.contains { $0.contains("refund of #2") } && $0.last == "-26.80" })
        #expect(mdRows.contains { $0.contains { $0.contains("credit") } && $0.last == "-10.05" })
        #expect(mdRows.contains { $0.last == "1,340.00" })

        // HTML: the same.
        let html = try trip.run("report", "--lines", "--format", "html")
        try #require(html.exitCode == 0, "\(html.stderr)")
        let totals = Self.htmlRows(html.stdout, under: "Totals")
        let htmlNet = try #require(totals.first { $0.first == "net total" }.flatMap { Self.cents($0[1]) })
        let htmlRows = Self.htmlRows(html.stdout, under: "Purchases")
        #expect(htmlRows.count == 7)
        #expect(htmlRows.compactMap { Self.cents($0.last!) }.reduce(0, +) == htmlNet)
        #expect(htmlNet == net)
        #expect(htmlRows.contains { $0.contains { $0.contains("refund of #2") } && $0.last == "-26.80" })
        #expect(htmlRows.contains { $0.contains { $0.contains("credit") } && $0.last == "-10.05" })

        // --member: every format's lines are Ben's parts and add up to his net.
        let mjson = try trip.run("report", "--member", "ben", "--lines", "--format", "json")
        try #require(mjson.exitCode == 0, "\(mjson.stderr)")
        let benNet = try #require(Self.cents((mjson.json["totals"] as? [String: Any])?["net"] as? String ?? ""))
        let memberLines = try #require(mjson.json["member_lines"] as? [[String: Any]])
        #expect(memberLines.compactMap { ($0["home_share"] as? String).flatMap(Self.cents) }.reduce(0, +) == benNet)

        let mtext = try trip.run("report", "--member", "ben", "--lines")
        try #require(mtext.exitCode == 0, "\(mtext.stderr)")
        let mtextLines = mtext.stdout.split(separator: "\n")
        let mtextRows = mtextLines.filter { $0.hasPrefix("  #") }.map(Self.cells)
        let mtextTotal = try #require(mtextLines.last { Self.cells($0).first == "total" }.flatMap { Self.cents(Self.cells($0)[1]) })
        #expect(mtextRows.compactMap { Self.cents($0[5]) }.reduce(0, +) == mtextTotal)
        #expect(mtextTotal == benNet)

        let mcsv = try trip.run("report", "--member", "ben", "--format", "csv")
        try #require(mcsv.exitCode == 0, "\(mcsv.stderr)")
        let mrows = mcsv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let share = try #require(mrows[0].firstIndex(of: "home_share"))
        #expect(mrows.dropFirst().compactMap { Self.cents($0[share]) }.reduce(0, +) == benNet)

        let mmd = try trip.run("report", "--member", "ben", "--lines", "--format", "markdown")
        try #require(mmd.exitCode == 0, "\(mmd.stderr)")
        let mmdRows = Self.markdownRows(mmd.stdout, under: "### Ben's part of each purchase")
        #expect(mmdRows.dropLast().compactMap { Self.cents($0.last!) }.reduce(0, +) == Self.cents(mmdRows.last!.last!))
        #expect(Self.cents(mmdRows.last!.last!) == benNet)

        let mhtml = try trip.run("report", "--member", "ben", "--lines", "--format", "html")
        try #require(mhtml.exitCode == 0, "\(mhtml.stderr)")
        let mhtmlNet = try #require(Self.htmlRows(mhtml.stdout, under: "Totals").first { $0.first == "net total" }.flatMap { Self.cents($0[1]) })
        let mhtmlRows = Self.htmlRows(mhtml.stdout, under: "Ben's part of each purchase")
        #expect(!mhtmlRows.isEmpty)
        #expect(mhtmlRows.compactMap { Self.cents($0.last!) }.reduce(0, +) == mhtmlNet)
        #expect(mhtmlNet == benNet)
    }

    @Test("The payer is never a guess: whoami takes a member's name; add with no payer is refused")
    func payerIsNeverAGuess() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [["init", "--home", "JPY"], ["new", "Japan", "--currency", "JPY"], ["member", "add", "Ana", "Ben", "Carla"]] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        let zed = try trip.run("whoami", "Zed")
        #expect(zed.exitCode == 65)
        #expect(zed.stderr == "trip: member: \"Zed\" is not a member of \"Japan\"; members: Ana, Ben, Carla\n")
        let near = try trip.run("whoami", "Bne")
        #expect(near.exitCode == 65)
        #expect(near.stderr.contains("did you mean Ben? members: Ana, Ben, Carla"))
        #expect(try trip.run("whoami", "--format", "json").json["whoami"] is NSNull)

        let guess = try trip.run("add", "1000", "x")
        #expect(guess.exitCode == 64)
        #expect(guess.stderr.contains("give --paid-by NAME, or say who you are once with `trip whoami NAME`"), "\(guess.stderr)")
        #expect((try trip.run("list", "--format", "json").json["purchases"] as? [Any])?.isEmpty == true)

        let paid = try trip.run("add", "1000", "x", "--paid-by", "ben", "--format", "json")
        #expect(paid.exitCode == 0, "\(paid.stderr)")
        let me = try trip.run("whoami", "carla")
        #expect(me.stdout == "You are Carla.\n")
        let mine = try trip.run("add", "2000", "y", "--format", "json")
        #expect(mine.exitCode == 0, "\(mine.stderr)")
        #expect((mine.json["paid_by"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Carla"])
    }

    /// `trip join` makes this device's member the one named like its role (in any case), or says
    /// to run `trip whoami`: a joined device never pays as the first member.
    @Test("join sets this device's member to the one named like its role, or says to run whoami")
    func joinSetsTheMemberNamedLikeTheRole() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Japan", "--currency", "JPY", "--home", "JPY").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)

        let benJoins = try ben.run("join", "Japan")
        #expect(benJoins.exitCode == 0, "\(benJoins.stderr)")
        #expect(benJoins.stdout.contains("You are Ben on this device"), "\(benJoins.stdout)")
        let benAdds = try ben.run("add", "1000", "test", "--format", "json")
        #expect(benAdds.exitCode == 0, "\(benAdds.stderr)")
        #expect((benAdds.json["paid_by"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ben"])

        let carlaJoins = try carla.run("join", "Japan")
        #expect(carlaJoins.exitCode == 0, "\(carlaJoins.stderr)")
        #expect(carlaJoins.stdout.contains("No member of Japan is named carla: say which one you are with `trip whoami NAME`"))
        let carlaAdds = try carla.run("add", "1000", "test")
        #expect(carlaAdds.exitCode == 64)
        #expect(carlaAdds.stderr.contains("`trip whoami NAME`"))
    }

    /// "ana=20000" typed: an edit of the amount keeps it; `rest` takes the difference.
    @Test("An amount edit keeps typed payer and item amounts; rest absorbs; else refused")
    func anAmountEditKeepsTypedAmounts() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [
            ["init", "--home", "JPY"], ["new", "Japan", "--currency", "JPY"], ["member", "add", "Ana", "Ben"], ["whoami", "Ana"],
            ["add", "30000", "train", "--paid-by", "ana=20000,ben=rest"],
            ["add", "5000", "dinner", "--items", "ana=3200,ben=rest"],
            ["add", "30000", "hotel", "--paid-by", "ana=20000,ben=10000"],
            ["add", "3000", "taxi", "--split", "ana=2,ben=1"],
        ] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        func amounts(_ r: TripResult, _ key: String, _ amount: String) -> [String] {
            (r.json[key] as? [[String: Any]])?.map { "\($0["name"]!) \($0[amount]!)" } ?? []
        }
        let train = try trip.run("edit", "1", "--amount", "31000", "--format", "json")
        #expect(train.exitCode == 0, "\(train.stderr)")
        #expect(amounts(train, "paid_by", "paid") == ["Ana 20000", "Ben 11000"])

        let dinner = try trip.run("edit", "2", "--amount", "5500", "--format", "json")
        #expect(dinner.exitCode == 0, "\(dinner.stderr)")
        #expect(amounts(dinner, "split", "share") == ["Ana 3200", "Ben 2300"])

        let hotel = try trip.run("edit", "3", "--amount", "31000")
        #expect(hotel.exitCode == 65)
        #expect(
            hotel.stderr
                == "trip: paid-by: \"Ana=20000,Ben=10000\" no longer adds up to the new total JPY 31,000, and no rest takes the difference; give --paid-by again\n"
        )
        let tooSmall = try trip.run("edit", "1", "--amount", "15000")
        #expect(tooSmall.exitCode == 65)
        #expect(tooSmall.stderr.hasPrefix("trip: paid-by: \"Ana=20000,Ben=rest\" is more than the new total JPY 15,000"), "\(tooSmall.stderr)")
        let listed = try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["total"] as? String } == ["31000", "5500", "30000", "3000"])

        // Weights and percentages scale, as before.
        let taxi = try trip.run("edit", "4", "--amount", "6000", "--format", "json")
        #expect(amounts(taxi, "split", "share") == ["Ana 4000", "Ben 2000"])
    }

    /// `--member` with `--by member` is refused: a member's report has one member (README).
    @Test("report --member with --by member is a usage error, one line")
    func memberWithByMemberIsRefused() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        let r = try trip.run("report", "--member", "ana", "--by", "member")
        #expect(r.exitCode == 64)
        #expect(r.stderr == "trip: --member and --by member cannot be used together; --by member alone shows every member's share\n")
        #expect(r.stdout.isEmpty)
    }

    /// Each message names the value as typed and its field; the same mistake, the same exit code.
    @Test("Messages name what was typed; the same mistake has the same exit code")
    func messagesNameWhatWasTyped() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        let items = try trip.run("add", "1000", "x", "--items", "ana=400,ben=500")
        #expect(items.exitCode == 65)
        #expect(items.stderr == "trip: items: \"ana=400,ben=500\" adds up to 900, not the price 1000; add what is missing or one NAME=rest\n")
        let comma = try trip.run("add", "2000", "x", "--items", "ana=1,200,ben=rest")
        #expect(comma.exitCode == 65)
        #expect(
            comma.stderr
                == "trip: items: \"ana=1,200,ben=rest\" has \"200\" with no NAME=: a comma separates entries, so amounts cannot group thousands with it; type ana=1200\n"
        )
        let tip = try trip.run("add", "1000", "x", "--tip", "10 %")
        #expect(tip.exitCode == 65)
        #expect(tip.stderr == "trip: tip: \"10 %\" has a space before %; type --tip 10%\n")
        let decimals = try trip.run("add", "12.5", "x")
        #expect(decimals.exitCode == 65)
        #expect(decimals.stderr == "trip: amount: \"12.5\" has 1 decimal places; JPY has 0\n")
        let refund = try trip.run("refund", "1", "100", "--date", "-1", "--format", "json")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        #expect(refund.json["date"] as? String == "2026-03-01")
        let transfer = try trip.run("transfer", "Ben", "Ana", "-10")
        #expect(transfer.exitCode == 65)
        #expect(transfer.stderr == "trip: amount: \"-10\" is negative; amounts cannot be below zero\n")
        #expect(try trip.run("add", "-1000").stderr == transfer.stderr.replacingOccurrences(of: "-10\"", with: "-1000\""))
        let dated = try trip.run("transfer", "Ben", "Ana", "10", "--date", "-2", "--format", "json")
        #expect(dated.exitCode == 0, "\(dated.stderr)")
        #expect(dated.json["date"] as? String == "2026-02-28")

        // Not a member: 65 on a trip with members and on one without.
        #expect(try trip.run("report", "--member", "zed").exitCode == 65)
        try #require(try trip.run("new", "Solo", "--currency", "JPY").exitCode == 0)
        let solo = try trip.run("report", "--member", "zed")
        #expect(solo.exitCode == 65)
        #expect(solo.stderr == "trip: member: \"zed\" is not a member of \"Solo\"; it has no members yet\n")
    }

    /// Finding 6: columns that line up, labels with their currency, values a printout keeps.
    @Test("list, add and the HTML report lay money out so it reads right")
    func formatting() throws {
        let (folder, trip) = try Self.trip()
        defer { withExtendedLifetime(folder) {} }
        // A refund wider than every purchase: its row stays in the columns.
        try #require(try trip.run("new", "Rail", "--currency", "JPY", "--home", "USD").exitCode == 0)
        let pass = try trip.run("add", "100000", "jr pass", "--trip", "Rail", "--format", "json")
        try #require(pass.exitCode == 0, "\(pass.stderr)")
        try #require(try trip.run("refund", "\(pass.json["id"] as? Int ?? 0)").exitCode == 0)
        try #require(try trip.run("use", "Japan").exitCode == 0)
        let list = try trip.run("list", "--trip", "Rail")
        let rows = list.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
        let rateColumn = Set(rows.compactMap { row in row.range(of: "manual").map { row.distance(from: row.startIndex, to: $0.lowerBound) } })
        #expect(rateColumn.count == 1, "\(list.stdout)")

        // An amount's label is the adjustment's name; the value says the currency. Paid by and
        // split line up with the breakdown.
        let add = try trip.run("add", "5000", "KRW", "dinner", "--tip", "5000")
        #expect(add.exitCode == 0, "\(add.stderr)")
        let lines = add.stdout.split(separator: "\n").map(String.init)
        #expect(!add.stdout.contains("tip 5000"), "\(add.stdout)")
        let tip = try #require(lines.first { $0.hasPrefix("  tip ") })
        let price = try #require(lines.first { $0.hasPrefix("  price ") })
        let paidBy = try #require(lines.first { $0.hasPrefix("  paid by ") })
        let split = try #require(lines.first { $0.hasPrefix("  split ") })
        let column = try #require(price.range(of: "KRW")).lowerBound.utf16Offset(in: price)
        #expect(tip.range(of: "KRW 5,000")?.lowerBound.utf16Offset(in: tip) == column)
        #expect(paidBy.range(of: "Ana")?.lowerBound.utf16Offset(in: paidBy) == column, "\(add.stdout)")
        #expect(split.range(of: "Ana")?.lowerBound.utf16Offset(in: split) == column, "\(add.stdout)")

        // The HTML by-member table has what each paid; per-day values are printed, not tooltips.
        let html = try trip.run("report", "--by", "member", "--format", "html").stdout
        let byMember = Self.htmlRows(html, under: "By member (share, then what they paid)")
        #expect(html.contains("<th class=\"n\">paid</th>"))
        #expect(byMember.first { $0.first == "Ana" }?.count == 5, "\(byMember)")
        let days = try trip.run("report", "--by", "day", "--format", "html").stdout
        let perDay = Self.htmlRows(days, under: "Spend per day")
        #expect(perDay.contains { $0 == ["2026-03-01", "1,442.73"] }, "\(perDay)")
        let md = try trip.run("report", "--by", "member", "--format", "markdown").stdout
        #expect(md.contains("| | USD | share | paid | purchases |"), "\(md)")
    }
}
