import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

/// The bytes of a group trip's `trip export --format csv`, pinned: the `paid_by` and `split` cells
/// are written from the stored split texts, so a faster writer must give exactly what decoding
/// them and `SplitText.write` gave (fixed amounts, `rest`, weights, fractions, percentages,
/// --items, quoting of names and cells, the `members` cell on a trip's first row only).
@Suite("Group export bytes")
struct GroupExportBytesTests {
    /// Three trips: a group trip with every kind of split and several payers, a second group trip
    /// with transfers and no purchase (its `members` go on its first transfer), a plain trip.
    static func ledger() throws -> TestLedger {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Group, \"one\"", localCurrency: "JPY", homeCurrency: "EUR"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0061", in: nil, date: "2026-03-01")
        // From before the trip had members: no split.
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "700", note: "coffee", date: "2026-03-01"))
        _ = try t.ledger.addMembers(["Ana", "Ben", "Zoë \"Z\"", "Dan"], trip: nil)
        let purchases: [(PurchaseDraft, SplitDraft)] = [
            (PurchaseDraft(amount: "3000", note: "taxi", date: "2026-03-01"), SplitDraft(paidBy: "ana=1000,ben=rest", split: "ana=2,ben=1")),
            (PurchaseDraft(amount: "1001", note: "snacks", date: "2026-03-01"), SplitDraft(paidBy: "Zoë \"Z\"", split: "ana=1.5,dan=1")),
            (
                PurchaseDraft(amount: "50", currency: "EUR", note: "museum", date: "2026-03-02"),
                SplitDraft(paidBy: "dan", split: "ana=60%,ben=40%")
            ),
            (
                PurchaseDraft(amount: "3000", note: "izakaya", date: "2026-03-02", tax: "10%", tip: "10%"),
                SplitDraft(paidBy: "ben=1000,dan=rest", items: "ana=1250,ben=800,ana=300,dan=rest")
            ),
            (PurchaseDraft(amount: "12000", currency: "MNT", note: "ger camp", date: "2026-03-02"), SplitDraft(paidBy: "dan", split: "all")),
            (PurchaseDraft(amount: "2200", note: "lunch", date: "2026-03-03"), SplitDraft(paidBy: "Ana", split: "ana,ben,Zoë \"Z\",dan")),
            (
                PurchaseDraft(amount: "999", note: "tea", date: "2026-03-03"),
                SplitDraft(paidBy: "dan=333,ben=333,ana=rest", split: "dan=33.3%,ben=66.7%")
            ),
            (PurchaseDraft(amount: "1234567", note: "rail pass", date: "2026-03-03"), SplitDraft(paidBy: "ben", split: "ben=0.25,ana=1.75")),
            (PurchaseDraft(amount: "10", note: "gum", date: "2026-03-01"), SplitDraft(paidBy: "dan", split: "dan")),
        ]
        for (p, s) in purchases { _ = try t.ledger.addPurchase(p, split: s) }
        _ = try t.ledger.addRefund("2", amount: "1000", date: "2026-03-04", charged: nil)
        _ = try t.ledger.addTransfer(from: "Zoë \"Z\"", to: "Ana", amount: "500", currency: nil, date: "2026-03-04", note: nil, trip: nil)
        _ = try t.ledger.createTrip(NewTrip(name: "Second", localCurrency: "EUR", homeCurrency: "EUR"))
        _ = try t.ledger.addMembers(["Eve", "Finn"], trip: "Second")
        _ = try t.ledger.addTransfer(from: "Eve", to: "Finn", amount: "5", currency: "EUR", date: "2026-03-04", note: "x", trip: "Second")
        _ = try t.ledger.createTrip(NewTrip(name: "Plain", localCurrency: "EUR", homeCurrency: "EUR"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "12.50", note: "bread", date: "2026-03-02", trip: "Plain"))
        return t
    }

    static func export(_ t: TestLedger, _ format: ExportFormat, trip: String?) throws -> String {
        var text = ""
        try t.ledger.export(format, trip: trip, all: trip == nil) { text += $0 }
        return text
    }

    @Test func everyTripsCSVIsAsPinned() throws {
        let t = try Self.ledger()
        let all = try Self.export(t, .csv, trip: nil)
        #expect(TextFieldColumns.removed(from: all) == Self.pinnedAll)
    }

    @Test func oneTripsCSVIsAsPinned() throws {
        let t = try Self.ledger()
        let one = try Self.export(t, .csv, trip: "Second")
        #expect(TextFieldColumns.removed(from: one) == Self.pinnedSecond)
    }

    /// `SplitCursor`, which reads the export's splits by one scan in key order, finds what a
    /// lookup by key finds, whatever the order it is asked in: ascending (stepping), descending
    /// (a seek each time), shuffled, ids far apart, ids of purchases with no split or of no
    /// purchase, and two trips whose ids interleave.
    @Test func theSplitCursorFindsWhatALookupFinds() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "A", localCurrency: "EUR", homeCurrency: "EUR"))
        _ = try t.ledger.createTrip(NewTrip(name: "B", localCurrency: "EUR", homeCurrency: "EUR"))
        for trip in ["A", "B"] {
            for i in 0..<5 { _ = try t.ledger.addPurchase(PurchaseDraft(amount: "\(i + 1)", date: "2026-03-01", trip: trip)) }
        }
        _ = try t.ledger.addMembers(["Ana", "Ben", "Carla"], trip: "A")
        _ = try t.ledger.addMembers(["Dan", "Eve"], trip: "B")
        for i in 0..<120 {
            let trip = i % 5 == 4 ? "B" : "A"
            let split =
                trip == "A"
                ? SplitDraft(paidBy: i % 2 == 0 ? "ana" : "ben=\(i),carla=rest", split: i % 3 == 0 ? "all" : "ana=2,ben=1")
                : SplitDraft(paidBy: "dan", split: "eve")
            _ = try t.ledger.addPurchase(PurchaseDraft(amount: "\(100 + i)", date: "2026-03-0\(1 + i % 7)", trip: trip), split: split)
        }
        let trips = try t.ledger.trips().map(\.id)
        let keys: [(Int64, Int64)] = trips.flatMap { trip in (0...140).map { (trip, Int64($0)) } } + [(trips[0], 10_000), (trips[1], -1)]
        var rng = SystemRandomNumberGenerator()
        let orders: [[(Int64, Int64)]] = [keys, Array(keys.reversed()), keys.shuffled(using: &rng), keys.filter { $0.1 % 40 == 0 } + keys]
        for order in orders {
            try t.ledger.splitStore.withCursor { cursor in
                for (trip, id) in order {
                    let found = try cursor.split(trip: trip, purchase: id).map {
                        (String(decoding: $0.payers, as: UTF8.self), String(decoding: $0.shares, as: UTF8.self))
                    }
                    let expected = try t.ledger.splitStore.stored(trip: trip, purchase: id)
                    #expect(found?.0 == expected?.payers && found?.1 == expected?.shares, "trip \(trip), purchase \(id)")
                }
            }
        }
    }

    /// The export's cells, written from the stored texts straight into the row, are the decoded
    /// cells quoted as `PurchaseCSV.record` quotes them: for odd texts too (a part of no member, a
    /// fraction, one part of several left), with and without a name that needs quotes.
    @Test(arguments: [false, true])
    func cellWriterQuotesAsRecordDoes(quotedName: Bool) throws {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "G", localCurrency: "EUR", homeCurrency: "EUR"))
        let members = try t.ledger.addMembers(["Ana", quotedName ? "Zoë \"Z\"" : "Zoë", "Ben"], trip: nil).added
        let (a, z, b) = (members[0].id, members[1].id, members[2].id)
        let texts = [
            "\(a)=2715", "\(a)=1,\(z)=1,\(b)=1", "\(z)=3/2,\(a)=1", "999=1,\(b)=4", "\(b)=4,999=1", "999=1", "", "\(a)=05,\(b)=1",
            "\(a)=1,", "\(z)=1234567890123456789", "\(a)=1/3,999=2/3",
        ]
        let group = try GroupExport(ledger: t.ledger, trips: [trip])
        let index = SplitWeights.Positions(members)
        var writer = group.cellWriter()
        for payers in texts {
            for shares in texts.prefix(4) {
                var (p, s) = (payers, shares)
                var out: [UInt8] = []
                let written = p.withUTF8 { p in s.withUTF8 { s in (try? writer.append(trip: trip.id, purchase: 1, stored: (p, s), to: &out)) != nil }
                }
                let cells = p.withUTF8 { p in
                    s.withUTF8 { s in
                        [
                            try? GroupExport.cell(p, index: index, members: members, purchase: 1, field: "payers"),
                            try? GroupExport.cell(s, index: index, members: members, purchase: 1, field: "split"),
                        ]
                    }
                }
                // A text `trip balances` refuses (a 19-digit weight) is refused by the export too.
                guard let payersCell = cells[0], let sharesCell = cells[1] else {
                    #expect(!written, "\(payers) | \(shares)")
                    continue
                }
                #expect(written)
                #expect(
                    String(decoding: out, as: UTF8.self) + "\r\n" == "," + PurchaseCSV.record([payersCell, sharesCell]),
                    "\(payers) | \(shares)")
            }
        }
        var out: [UInt8] = []
        try writer.append(trip: trip.id, purchase: 1, stored: nil, to: &out)
        #expect(out == Array(",,".utf8))
    }

    /// Written by the export before it wrote the cells as bytes (cc2a830).
    static let pinnedAll = [
        #"id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,rate_fetched_at,provisional,home_currency,home_total,charged,kind,refund_of,paid_by,split,members,trip_currency,trip_home_currency,trip_start,trip_end,trip_budget,trip_presets"#,
        #"1,"Group, ""one""",2026-03-01,coffee,,,JPY,700,700,0,,0,,0,,false,0,,700,half-up,,0.0061,2026-03-01,manual,,,false,EUR,4.27,,purchase,,,,"Ana,Ben,Zoë ""Z"",Dan",JPY,EUR,,,,"#,
        #"2,"Group, ""one""",2026-03-01,taxi,,,JPY,3000,3000,0,,0,,0,,false,0,,3000,half-up,,0.0061,2026-03-01,manual,,,false,EUR,18.30,,purchase,,"Ana=1000,Ben=2000","Ana=2,Ben=1",,,,,,,"#,
        #"3,"Group, ""one""",2026-03-01,snacks,,,JPY,1001,1001,0,,0,,0,,false,0,,1001,half-up,,0.0061,2026-03-01,manual,,,false,EUR,6.11,,purchase,,"Zoë ""Z""=1001","Ana=3/2,Dan=1",,,,,,,"#,
        #"10,"Group, ""one""",2026-03-01,gum,,,JPY,10,10,0,,0,,0,,false,0,,10,half-up,,0.0061,2026-03-01,manual,,,false,EUR,0.06,,purchase,,Dan=10,Dan=1,,,,,,,"#,
        #"4,"Group, ""one""",2026-03-02,museum,,,EUR,50,50.00,0.00,,0.00,,0.00,,false,0.00,,50.00,half-up,,1,2026-03-02,identity,,,false,EUR,50.00,,purchase,,Dan=5000,"Ana=60,Ben=40",,,,,,,"#,
        #"5,"Group, ""one""",2026-03-02,izakaya,,,JPY,3000,3000,0,,0,,300,10%,false,300,10%,3600,half-up,,0.0061,2026-03-01,manual,,,false,EUR,21.96,,purchase,,"Ben=1000,Dan=2600","Ana=1550,Ben=800,Dan=650",,,,,,,"#,
        #"6,"Group, ""one""",2026-03-02,ger camp,,,MNT,12000,12000.00,0.00,,0.00,,0.00,,false,0.00,,12000.00,half-up,,,,none,,,true,EUR,,,purchase,,Dan=1200000,"Ana=1,Ben=1,Zoë ""Z""=1,Dan=1",,,,,,,"#,
        #"7,"Group, ""one""",2026-03-03,lunch,,,JPY,2200,2200,0,,0,,0,,false,0,,2200,half-up,,0.0061,2026-03-01,manual,,,false,EUR,13.42,,purchase,,Ana=2200,"Ana=1,Ben=1,Zoë ""Z""=1,Dan=1",,,,,,,"#,
        #"8,"Group, ""one""",2026-03-03,tea,,,JPY,999,999,0,,0,,0,,false,0,,999,half-up,,0.0061,2026-03-01,manual,,,false,EUR,6.09,,purchase,,"Ana=333,Ben=333,Dan=333","Ben=667/10,Dan=333/10",,,,,,,"#,
        #"9,"Group, ""one""",2026-03-03,rail pass,,,JPY,1234567,1234567,0,,0,,0,,false,0,,1234567,half-up,,0.0061,2026-03-01,manual,,,false,EUR,7530.86,,purchase,,Ben=1234567,"Ana=7/4,Ben=1/4",,,,,,,"#,
        #"11,"Group, ""one""",2026-03-04,taxi,,,JPY,1000,1000,0,,0,,0,,false,0,,1000,half-up,,0.0061,2026-03-01,manual,,,false,EUR,6.10,,refund,2,"Ana=1000,Ben=2000","Ana=2,Ben=1",,,,,,,"#,
        #"12,Plain,2026-03-02,bread,,,EUR,12.50,12.50,0.00,,0.00,,0.00,,false,0.00,,12.50,half-up,,1,2026-03-02,identity,,,false,EUR,12.50,,purchase,,,,,EUR,EUR,,,,"#,
        #"1,"Group, ""one""",2026-03-04,,,,EUR,500.00,500.00,0.00,,0.00,,0.00,,false,0.00,,500.00,,,1,2026-03-04,identity,,,false,EUR,500.00,,transfer,,"Zoë ""Z""",Ana,,,,,,,"#,
        #"2,Second,2026-03-04,x,,,EUR,5.00,5.00,0.00,,0.00,,0.00,,false,0.00,,5.00,,,1,2026-03-04,identity,,,false,EUR,5.00,,transfer,,Eve,Finn,"Eve,Finn",EUR,EUR,,,,"#,
    ].map { $0 + "\r\n" }.joined()
    static let pinnedSecond = [
        #"id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,rate_fetched_at,provisional,home_currency,home_total,charged,kind,refund_of,paid_by,split,members,trip_currency,trip_home_currency,trip_start,trip_end,trip_budget,trip_presets"#,
        #"2,Second,2026-03-04,x,,,EUR,5.00,5.00,0.00,,0.00,,0.00,,false,0.00,,5.00,,,1,2026-03-04,identity,,,false,EUR,5.00,,transfer,,Eve,Finn,"Eve,Finn",EUR,EUR,,,,"#,
    ].map { $0 + "\r\n" }.joined()
}
