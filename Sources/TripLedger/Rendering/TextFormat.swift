import TripCore

/// Text output for people. Not a contract: scripts use `--format json`.
/// Everything that echoes user text goes through `safe`, so a note cannot emit terminal control codes.
public enum TextFormat {
    /// User text made safe for a terminal: control and format characters become visible escapes.
    public static func safe(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || (scalar.properties.generalCategory == .format && scalar.value != 0x200D) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }

    static func money(_ v: Int64, _ c: Currency) -> String { Money(minorUnits: v, currency: c).formatted }

    /// How a conversion is described: "at 0.0067 (manual, 2026-03-02)".
    public static func provenance(_ c: Conversion) -> String {
        guard let q = c.quote else { return "unconverted: no rate" }
        var parts: [String] = [q.source.rawValue]
        if let p = q.provider { parts[0] = "\(q.source.rawValue) \(p)" }
        if let d = q.date { parts.append(d.description) }
        if q.provisional { parts.append("provisional") }
        return "at \(q.rate) (\(parts.joined(separator: ", ")))"
    }

    /// The breakdown printed by `trip add` and `trip edit`.
    public static func purchase(_ p: Purchase, verb: String) -> String {
        let b = p.breakdown, c = p.currency
        var lines = ["\(verb) #\(p.id) to \(safe(p.tripName)) · \(p.date)\(p.note.isEmpty ? "" : " · " + safe(p.note))"]
        var rows: [(String, String)] = [("price", money(b.price, c))]
        if let d = p.inputs.discount { rows.append(("discount \(d)", "-" + money(b.discount, c))) }
        if b.discount > 0 || p.inputs.service != nil || p.inputs.tax != nil || p.inputs.tip != nil {
            rows.append(("subtotal", money(b.subtotal, c)))
        }
        if let v = p.inputs.service { rows.append(("service \(v)", money(b.service, c))) }
        if let t = p.inputs.tax {
            rows.append((b.taxIncluded ? "of which tax \(t) (included)" : "tax \(t)", money(b.tax, c)))
        }
        if let g = p.inputs.tip { rows.append(("tip \(g)", money(b.tip, c))) }
        rows.append(("total", money(b.total, c)))
        let conv = p.conversion
        if let h = conv.home, conv.source != .identity {
            rows.append(("in \(conv.homeCurrency.code)", "\(money(h, conv.homeCurrency))  \(provenance(conv))"))
        } else if conv.home == nil {
            rows.append(("in \(conv.homeCurrency.code)", "unconverted: no \(c.code)→\(conv.homeCurrency.code) rate; set one with `trip rates set \(c.code) RATE`"))
        }
        let width = rows.map { $0.0.count }.max() ?? 0
        for (k, v) in rows { lines.append("  \(pad(k, width))  \(v)") }
        return lines.joined(separator: "\n")
    }

    /// `trip list`.
    public static func list(_ trip: Trip, _ purchases: [Purchase]) -> String {
        guard !purchases.isEmpty else { return "No purchases in \(safe(trip.name))." }
        var rows: [[String]] = [["id", "date", "amount", trip.homeCurrency.code, "rate", "note"]]
        for p in purchases {
            let home = p.conversion.home.map { Money.group(Money(minorUnits: $0, currency: p.conversion.homeCurrency).plainText) } ?? "—"
            let flag = p.conversion.home == nil ? "none" : p.conversion.source.rawValue + (p.conversion.provisional ? "*" : "")
            var note = safe(p.note)
            if let cat = p.category { note = "[\(safe(cat))] " + note }
            rows.append(["#\(p.id)", p.date.description, money(p.breakdown.total, p.currency), home, flag, note])
        }
        let widths = (0..<6).map { i in rows.map { $0[i].count }.max() ?? 0 }
        var out: [String] = []
        for r in rows {
            var cells: [String] = []
            for i in 0..<6 {
                cells.append(i == 5 ? r[i] : pad(r[i], widths[i], right: i == 2 || i == 3))
            }
            out.append(cells.joined(separator: "  "))
        }
        if purchases.contains(where: { $0.conversion.provisional && $0.conversion.home != nil }) {
            out.append("* provisional rate: `trip rates sync` replaces it with the rate of the purchase's date")
        }
        return out.joined(separator: "\n")
    }

    /// `trip report`.
    public static func report(_ r: TripReport) -> String {
        let home = r.trip.homeCurrency
        var dates = ""
        if let f = r.firstDate, let l = r.lastDate { dates = " · \(f) … \(l)" }
        var out = ["\(safe(r.trip.name)) · \(r.purchaseCount) purchase\(r.purchaseCount == 1 ? "" : "s")\(dates)\(r.trip.closedAt.map { " · closed \($0)" } ?? "")",
                   "", "Totals in \(home.code)"]
        let t = r.totals
        var rows: [(String, Int64)] = [("gross", t.gross)]
        if t.discounts != 0 { rows.append(("discounts saved", -t.discounts)) }
        if t.service != 0 { rows.append(("service", t.service)) }
        if t.taxAdded != 0 { rows.append(("tax added", t.taxAdded)) }
        if t.tip != 0 { rows.append(("tip", t.tip)) }
        rows.append(("net total", t.net))
        let amounts = rows.map { Money.group(Money(minorUnits: $0.1, currency: home).plainText) }
        let w = max(amounts.map(\.count).max() ?? 0, 8)
        for (i, row) in rows.enumerated() { out.append("  \(pad(row.0, 16)) \(pad(amounts[i], w, right: true))") }
        if t.taxIncluded != 0 {
            out.append("  \(pad("of which tax", 16)) \(pad(Money.group(Money(minorUnits: t.taxIncluded, currency: home).plainText), w, right: true))  (included in prices)")
        }
        if let budget = r.trip.budgetMinor {
            out.append("  \(pad("budget", 16)) \(pad(Money.group(Money(minorUnits: budget, currency: home).plainText), w, right: true))  remaining \(Money(minorUnits: budget - t.net, currency: home).formatted)")
        }
        if !r.byCategory.isEmpty {
            out.append("")
            out.append("By category")
            let kw = r.byCategory.map { safe($0.key).count }.max() ?? 0
            let cells = r.byCategory.map { l -> (String, String) in
                guard l.unconverted < l.count else { return ("unconverted", "") }
                let share = t.net == 0 ? "" : ((try? Rational(Int128(l.home) * 100, Int128(t.net)))?
                    .decimalText(fractionDigits: 1, rounding: .halfUp) ?? "?") + "%"
                return (Money.group(Money(minorUnits: l.home, currency: home).plainText), share)
            }
            let aw = max(w, cells.map(\.0.count).max() ?? 0), sw = cells.map(\.1.count).max() ?? 0
            for (l, cell) in zip(r.byCategory, cells) {
                let extra = l.unconverted > 0 && l.unconverted < l.count ? ", \(l.unconverted) unconverted" : ""
                out.append("  \(pad(safe(l.key), kw))  \(pad(cell.0, aw, right: true))  \(pad(cell.1, sw, right: true))  (\(l.count)\(extra))")
            }
        }
        if r.byCurrency.count > 1 || r.byCurrency.first?.key != home.code, !r.byCurrency.isEmpty {
            out.append("")
            out.append("By currency paid")
            for l in r.byCurrency {
                guard let c = CurrencyTable.shared.lookup(l.key), let o = l.original else { continue }
                let unconverted = r.unconverted.first { $0.key == l.key }?.count ?? 0
                let converted = unconverted == l.count ? "unconverted" : Money(minorUnits: l.home, currency: home).formatted
                    + (unconverted > 0 ? " (+\(unconverted) unconverted)" : "")
                out.append("  \(pad(money(o, c), 20, right: true))  →  \(converted)  (\(l.count))")
            }
        }
        out.append("")
        out.append("Rates")
        for p in r.provenance where p.source != .none {
            let label = p.source == .identity ? "no conversion needed" : "\(p.source.rawValue)\(p.provisional ? ", provisional" : "")"
            out.append("  \(pad(label, 24)) \(pad(String(p.count), 5, right: true))  \(Money(minorUnits: p.home, currency: home).formatted)")
        }
        let provisional = r.provisionalCount - r.unconvertedCount
        if provisional > 0 {
            out.append("warning: \(provisional) purchase\(provisional == 1 ? " is" : "s are") converted at provisional rates; run `trip rates sync` when online")
        }
        if r.unconvertedCount > 0 {
            let what = r.unconverted.compactMap { l in CurrencyTable.shared.lookup(l.key).map { money(l.original ?? 0, $0) } }
            out.append("warning: \(r.unconvertedCount) purchase\(r.unconvertedCount == 1 ? " is" : "s are") unconverted (no rate) and not in the totals: \(what.joined(separator: ", "))")
        }
        return out.joined(separator: "\n")
    }

    /// `trip trips`.
    public static func trips(_ trips: [Trip], current: Trip?) -> String {
        guard !trips.isEmpty else { return "No trips yet. Create one with `trip new NAME --currency CUR`." }
        return trips.map { t in
            let mark = t.id == current?.id ? "*" : " "
            var line = "\(mark) \(safe(t.name))  \(t.localCurrency?.code ?? "-")→\(t.homeCurrency.code)"
            if let s = t.start { line += "  \(s)…\(t.end?.description ?? "")" }
            if let p = t.preset { line += "  preset \(p)" }
            if t.closedAt != nil { line += "  (closed)" }
            return line
        }.joined(separator: "\n")
    }

    /// `trip show`.
    public static func trip(_ t: Trip, report r: TripReport) -> String {
        var lines = ["\(safe(t.name))",
                     "  local currency  \(t.localCurrency?.code ?? "(none; purchases default to home)")",
                     "  home currency   \(t.homeCurrency.code)"]
        if t.start != nil || t.end != nil { lines.append("  dates           \(t.start?.description ?? "?") … \(t.end?.description ?? "?")") }
        if let p = t.preset { lines.append("  preset          \(p)") }
        if let b = t.budgetMinor { lines.append("  budget          \(money(b, t.homeCurrency))") }
        lines.append("  purchases       \(r.purchaseCount)")
        lines.append("  total           \(money(r.totals.net, t.homeCurrency))")
        if r.provisionalCount > 0 { lines.append("  provisional     \(r.provisionalCount - r.unconvertedCount)") }
        if r.unconvertedCount > 0 { lines.append("  unconverted     \(r.unconvertedCount)") }
        return lines.joined(separator: "\n")
    }
}
