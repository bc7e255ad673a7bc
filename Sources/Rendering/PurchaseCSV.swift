import TripCore
import TripModel

/// The purchase CSV contract: one row per purchase, RFC 4180 (comma-separated, CRLF line ends,
/// fields quoted when they contain a comma, a quote, CR or LF; quotes doubled inside).
///
/// `trip report --format csv` and `trip export --format csv` write it; `trip import` reads it back,
/// so export then import round-trips. Amounts are exact decimal strings in their own currency's
/// minor digits (`"3240"` JPY, `"21.71"` USD); booleans are `true`/`false`; absent values are empty.
/// Changing a column is a breaking change (README, "CSV").
public enum PurchaseCSV {
    /// The header row, in order.
    public static let columns = [
        "id", "trip", "date", "note", "category", "paid_with",
        "currency", "expression", "price",
        "discount", "discount_spec", "service", "service_spec",
        "tax", "tax_spec", "tax_included", "tip", "tip_spec",
        "total", "rounding", "preset",
        "rate", "rate_date", "rate_source", "rate_provider", "rate_fetched_at", "provisional",
        "home_currency", "home_total", "charged",
        // Added with refunds (m0007); a file without them imports as purchases.
        "kind", "refund_of",
        // Added with group trips; a file without them imports with no splits (see `GroupImport`).
        "paid_by", "split", "members",
    ]

    /// The columns `trip export --format csv` adds after `columns`: the facts of the row's trip
    /// (local currency, home currency, dates, budget in the home currency, default presets joined
    /// by `,`), on the first row of each trip in the file and empty on the others, so `trip import`
    /// into a ledger without that trip creates it as it was. Added after `members`; a file without
    /// them imports as before (a trip it must create gets the row's home currency only).
    public static let tripColumns = ["trip_currency", "trip_home_currency", "trip_start", "trip_end", "trip_budget", "trip_presets"]

    /// The columns of `PurchaseTextFields.all`, last in every purchase CSV: `trip export` and
    /// `trip report` write them after their own, `trip import` reads them wherever they stand.
    public static let textColumns = PurchaseTextFields.all.map(\.key)

    /// What `trip export --format csv` writes: `columns`, then `tripColumns`, then `textColumns`.
    public static let exportColumns = columns + tripColumns + textColumns

    /// The `textColumns` cells of `p` (none: a transfer), each after its comma.
    public static func appendTexts(_ p: Purchase?, to out: inout [UInt8]) {
        for i in PurchaseTextFields.all.indices {
            out.append(UInt8(ascii: ","))
            appendField(p?.texts[i] ?? "", to: &out)
        }
    }

    /// The `tripColumns` cells of `trip` (its facts; see `tripColumns`).
    public static func tripFields(_ trip: Trip) -> [String] {
        [
            trip.localCurrency?.code ?? "", trip.homeCurrency.code, trip.start?.description ?? "", trip.end?.description ?? "",
            trip.budgetMinor.map { Money(minorUnits: $0, currency: trip.homeCurrency).plainText } ?? "",
            trip.presets.joined(separator: ","),
        ]
    }

    /// Empty `tripColumns` cells: every row of a trip but its first.
    public static let noTripFields = tripColumns.map { _ in "" }

    /// The columns `trip report --format csv` adds after `columns`, for a spreadsheet that sums one
    /// column: `signed_home_total` is `home_total` with the sign of `kind` (a refund or credit is
    /// negative), so the column adds up to the report's net total. `trip export` does not write it
    /// (its rows round-trip through `columns`); `trip import` reads a report's file and ignores it.
    public static let reportColumns = ["signed_home_total"]

    /// The `kind` of a transfer row, outside `PurchaseKind`: a transfer is not a purchase.
    public static let transferKind = "transfer"

    /// The fields of `p`, in `columns` order. `paidBy` and `split` are `SplitText` cells, `members`
    /// the trip's members on its first row (`trip export` fills them; a report leaves them empty).
    public static func fields(_ p: Purchase, paidBy: String = "", split: String = "", members: String = "") -> [String] {
        let b = p.breakdown, c = p.conversion, q = p.conversion.quote
        func money(_ v: Int64) -> String { Money(minorUnits: v, currency: p.currency).plainText }
        func home(_ v: Int64?) -> String { v.map { Money(minorUnits: $0, currency: c.homeCurrency).plainText } ?? "" }
        return [
            String(p.id), p.tripName, p.date.description, p.note, p.category ?? "", p.paidWith ?? "",
            p.currency.code, p.expression, money(b.price),
            money(b.discount), p.inputs.discount?.description ?? "", money(b.service), p.inputs.service?.description ?? "",
            money(b.tax), p.inputs.tax?.description ?? "", b.taxIncluded ? "true" : "false", money(b.tip),
            p.inputs.tip?.description ?? "",
            money(b.total), p.inputs.rounding.rawValue, p.preset ?? "",
            q?.rate ?? "", q?.date?.description ?? "", c.source.rawValue, q?.provider ?? "", q?.fetchedAt ?? "",
            c.provisional ? "true" : "false",
            c.homeCurrency.code, home(c.home), home(p.chargedMinor),
            p.kind.rawValue, p.refundOf.map { String($0) } ?? "",
            paidBy, split, members,
        ]
    }

    /// A transfer between members as a row: kind `transfer`, the amount as price and total,
    /// `paid_by` the member who pays and `split` the one paid, with its recorded conversion.
    public static func fields(_ t: ExportTransfer, members: String) -> [String] {
        let q = t.quote
        let amount = t.amount.plainText, zero = Money(minorUnits: 0, currency: t.amount.currency).plainText
        return [
            String(t.id), t.tripName, t.date.description, t.note, "", "",
            t.amount.currency.code, amount, amount,
            zero, "", zero, "", zero, "", "false", zero, "",
            amount, "", "",
            q?.rate ?? "", q?.date?.description ?? "", q?.source.rawValue ?? RateSource.none.rawValue, q?.provider ?? "", "",
            q?.provisional ?? true ? "true" : "false",
            t.homeCurrency.code, t.home.map { Money(minorUnits: $0, currency: t.homeCurrency).plainText } ?? "", "",
            transferKind, "",
            t.from.name, t.to.name, members,
        ]
    }

    /// The position of `paid_by` in `columns`: a group trip's export writes the fields before it
    /// with `append(_:to:)` and its cells from the stored split (`trip export`).
    public static let paidByColumn = columns.firstIndex(of: "paid_by")!

    /// `record(fields)` without its CRLF, appended to `out` as UTF-8: the export writes its rows
    /// into its output buffer, with no `String` per row.
    public static func append(_ fields: ArraySlice<String>, to out: inout [UInt8]) {
        var first = true
        for field in fields {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendField(field, to: &out)
        }
    }

    /// `record`'s CRLF.
    public static func appendLineEnd(to out: inout [UInt8]) {
        out.append(0x0D)
        out.append(0x0A)
    }

    /// One field of `record`, quoted as `record` quotes it, appended to `out`.
    public static func appendField(_ field: String, to out: inout [UInt8]) {
        if field.utf8.withContiguousStorageIfAvailable({ appendField($0, to: &out) }) == nil {
            Array(field.utf8).withUnsafeBufferPointer { appendField($0, to: &out) }
        }
    }

    /// Whether a field holding byte `b` is quoted: a quote, a comma or a line break. Bytes, not
    /// Characters: "\r\n" is a single Character, so `contains("\n")` misses it.
    public static func needsQuotes(_ b: UInt8) -> Bool { b == 0x22 || b == 0x2C || b == 0x0A || b == 0x0D }

    /// The same for a field's UTF-8: the one home of the CSV quoting rule.
    public static func appendField(_ f: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var needsQuotes = false, hasQuote = false
        for b in f where Self.needsQuotes(b) {
            needsQuotes = true
            if b == 0x22 { hasQuote = true }
        }
        guard needsQuotes else { return out.append(contentsOf: f) }
        out.append(0x22)
        if hasQuote {
            for b in f {
                out.append(b)
                if b == 0x22 { out.append(0x22) }
            }
        } else {
            out.append(contentsOf: f)
        }
        out.append(0x22)
    }

    /// One RFC 4180 record, CRLF-terminated: `append` of every field, then `appendLineEnd`.
    public static func record(_ fields: [String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(fields.reduce(2) { $0 + $1.utf8.count + 3 })
        append(fields[...], to: &out)
        appendLineEnd(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension PurchaseCSV {
    /// `trip report --format csv`: the reports' purchases (`lines`), or with `--member` the
    /// member's shares (`memberLines`, their own columns: README, "Group trips"). Terminal-safe like
    /// the other report formats: a legacy note's ESC prints as \u{1b}.
    public static func report(_ reports: [TripReport], member: Bool) -> String {
        func safe(_ fields: [String]) -> String { record(fields.map { TextFormat.safe($0, keepingTabs: true) }) }
        var out = record(member ? MemberLineCSV.columns : columns + reportColumns + textColumns)
        for r in reports {
            if member {
                for l in r.memberLines { out += safe(MemberLineCSV.fields(l, member: r.member ?? "")) }
            } else {
                for p in r.lines {
                    let signed = p.signedHome.map { Money(minorUnits: $0, currency: p.conversion.homeCurrency).plainText } ?? ""
                    out += safe(fields(p) + [signed] + p.texts.values.map { $0 ?? "" })
                }
            }
        }
        return out
    }
}
