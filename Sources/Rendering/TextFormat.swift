import TripCore
import TripModel

/// Text output for people. Not a contract: scripts use `--format json`.
/// Everything that echoes user text goes through `safe`, so a note cannot emit terminal control codes.
public enum TextFormat {
    /// User text made safe for a terminal: control and format characters become visible escapes.
    ///
    /// C0 controls (also tab, CR and LF), DEL, C1 controls and format characters (bidi overrides
    /// such as U+202E, zero-width spaces; but not the zero-width joiner U+200D, which emoji need)
    /// are written as `\u{1b}`, lower-case hex, the form Swift and the error messages use. Stored
    /// text is never changed; only what is printed. `keepingTabs` leaves tabs as they are (CSV).
    public static func safe(_ s: String, keepingTabs: Bool = false) -> String {
        escaping(s) { scalar, _ in keepingTabs && scalar == "\t" }
    }

    /// Text of several lines made safe line by line: what `safe` does, except that the line feeds
    /// between lines stay. The last guard of every text output (`emit`).
    public static func safeLines(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" }) else { return s }
        return s.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    /// A file format's text (an export) made safe for a terminal: what `safe` does, except that
    /// line feeds, CRLF pairs and tabs stay, so the layout survives. Used only when stdout is a
    /// terminal; a file gets the exact text.
    public static func safeForTerminal(_ s: String) -> String {
        escaping(s) { scalar, next in scalar == "\n" || scalar == "\t" || (scalar == "\r" && next == "\n") }
    }

    /// `s` with each scalar that `needsEscape` and that `keep(scalar, nextScalar)` does not keep
    /// written as `\u{…}`. Returns `s` itself when nothing needs escaping.
    private static func escaping(_ s: String, keep: (Unicode.Scalar, Unicode.Scalar?) -> Bool) -> String {
        let scalars = s.unicodeScalars
        func escaped(_ i: String.UnicodeScalarView.Index) -> Bool {
            let next = scalars.index(after: i)
            return needsEscape(scalars[i]) && !keep(scalars[i], next < scalars.endIndex ? scalars[next] : nil)
        }
        guard scalars.indices.contains(where: escaped) else { return s }
        var out = ""
        for i in scalars.indices {
            if escaped(i) {
                out += UnsafeText.escaped(scalars[i])
            } else {
                out.unicodeScalars.append(scalars[i])
            }
        }
        return out
    }

    /// True for the characters `safe` escapes.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { UnsafeText.isUnsafe(scalar) }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }

    public static func money(_ v: Int64, _ c: Currency) -> String { Money(minorUnits: v, currency: c).formatted }

    /// How a conversion is described: "at 0.0067 (manual, 2026-03-02)".
    public static func provenance(_ c: Conversion) -> String {
        guard let q = c.quote else { return "unconverted: no rate" }
        var parts: [String] = [q.source.rawValue]
        if let p = q.provider { parts[0] = "\(q.source.rawValue) \(p)" }
        if let d = q.date { parts.append(d.description) }
        if q.provisional { parts.append("provisional") }
        return "at \(q.rate) (\(parts.joined(separator: ", ")))"
    }

    /// What a command did to the purchase it shows.
    public enum Verb: String, Sendable {
        case added = "Added", updated = "Updated", restored = "Restored", refunded = "Refunded"

        /// "Added #3 to Japan", but "Updated #3 in Japan": an edit does not move it there.
        var preposition: String { self == .added || self == .restored ? "to" : "in" }
    }

    /// The breakdown printed by `trip add`, `edit`, `refund` and `restore`.
    public static func purchase(_ p: Purchase, verb: Verb, more: [(String, String)] = []) -> String {
        // A percentage belongs in the label ("tip 10%"); an amount is the value column already, in
        // its currency ("tip  KRW 5,000", not "tip 5000  KRW 5,000").
        func label(_ name: String, _ spec: AdjustmentSpec) -> String {
            if case .percent = spec { return "\(name) \(spec)" }
            return name
        }
        let b = p.breakdown, c = p.currency
        let what =
            switch p.kind {
            case .purchase: ""
            case .refund: " (refund of #\(p.refundOf.map(String.init) ?? "?")\(p.refundOfSharedID.map { " \($0)" } ?? ""))"
            case .credit: " (credit)"
            }
        var lines = [
            "\(verb.rawValue) #\(p.id)\(p.sharedID.map { " \($0)" } ?? "")\(what) \(verb.preposition) \(safe(p.tripName)) · \(p.date)\(p.note.isEmpty ? "" : " · " + safe(p.note))"
        ]
        var rows: [(String, String)] = [("price", money(b.price, c))]
        // The preset is named so that nothing it adds happens unseen.
        if let preset = p.preset {
            let fromTrip = p.explicitFields.map { !$0.contains(.preset) } ?? false
            rows.insert(("preset", fromTrip ? "\(preset) (the trip's default for \(c.code))" : preset), at: 0)
        }
        if let d = p.inputs.discount { rows.append((label("discount", d), "-" + money(b.discount, c))) }
        if b.discount > 0 || p.inputs.service != nil || p.inputs.tax != nil || p.inputs.tip != nil {
            rows.append(("subtotal", money(b.subtotal, c)))
        }
        if let v = p.inputs.service { rows.append((label("service", v), money(b.service, c))) }
        if let t = p.inputs.tax {
            rows.append((b.taxIncluded ? "of which \(label("tax", t)) (included)" : label("tax", t), money(b.tax, c)))
        }
        if let g = p.inputs.tip { rows.append((label("tip", g), money(b.tip, c))) }
        rows.append(("total", money(p.signedTotal, c)))
        let conv = p.conversion
        if let h = p.signedHome, conv.source != .identity {
            rows.append(("in \(conv.homeCurrency.code)", "\(money(h, conv.homeCurrency))  \(provenance(conv))"))
        } else if conv.home == nil {
            rows.append(
                (
                    "in \(conv.homeCurrency.code)",
                    "unconverted: no \(c.code)→\(conv.homeCurrency.code) rate; set one with `trip rates set \(c.code) RATE`"
                ))
        }
        for (i, field) in PurchaseTextFields.all.enumerated() {
            if let text = p.texts[i] { rows.append((field.key, safe(text))) }
        }
        rows += more
        let width = rows.map { $0.0.count }.max() ?? 0
        for (k, v) in rows { lines.append("  \(pad(k, width))  \(v)") }
        return lines.joined(separator: "\n")
    }

    /// `trip rm`: which purchase went, its money formatted like every other output and its note.
    public static func removed(_ p: Purchase) -> String {
        let note = p.note.isEmpty ? "" : " · " + safe(p.note)
        return "Removed #\(p.id)\(p.sharedID.map { " \($0)" } ?? "") (\(money(p.breakdown.total, p.currency)) on \(p.date)\(note))."
    }

    /// `trip list` of purchases in memory: the same table `listHeader`, `listRow` and
    /// `listFooter` stream.
    public static func list(_ trip: Trip, _ purchases: [Purchase]) -> String {
        var layout = ListLayout(
            count: purchases.count, idWidth: 2, amountWidth: 6, homeWidth: trip.homeCurrency.code.count,
            rateWidth: 4, anyProvisional: false)
        for p in purchases {
            let cells = listCells(p)
            layout.idWidth = max(layout.idWidth, cells.id.count)
            layout.amountWidth = max(layout.amountWidth, cells.amount.count)
            layout.homeWidth = max(layout.homeWidth, cells.home.count)
            layout.rateWidth = max(layout.rateWidth, cells.rate.count)
            layout.anyProvisional = layout.anyProvisional || (p.conversion.provisional && p.conversion.home != nil)
        }
        guard let header = listHeader(trip, layout) else { return listEmpty(trip) }
        return ([header] + purchases.map { listRow($0, layout) } + [listFooter(layout)].compactMap { $0 })
            .map { String($0.dropLast()) }.joined(separator: "\n")
    }

    /// `No purchases in Japan.`, or when the trip has purchases that a filter (`filter`, its options
    /// as typed) left out: `No purchases in Japan match --category food.`
    public static func listEmpty(_ trip: Trip, filter: [String] = []) -> String {
        filter.isEmpty
            ? "No purchases in \(safe(trip.name))."
            : "No purchases in \(safe(trip.name)) match \(filter.map { safe($0) }.joined(separator: " "))."
    }

    /// The header line of `trip list` (with its line feed), or nil when there are no rows.
    public static func listHeader(_ trip: Trip, _ layout: ListLayout) -> String? {
        guard layout.count > 0 else { return nil }
        return listLine(["id", "date", "amount", safe(trip.homeCurrency.code), "rate", "note"], layout)
    }

    /// One purchase's line of `trip list`, with its line feed.
    public static func listRow(_ p: Purchase, _ layout: ListLayout) -> String {
        let c = listCells(p)
        return listLine([c.id, p.date.description, c.amount, c.home, c.rate, c.note], layout)
    }

    /// The footnote after the rows, if some rate is provisional.
    public static func listFooter(_ layout: ListLayout) -> String? {
        layout.anyProvisional ? "* provisional rate: `trip rates sync` replaces it with the rate of the purchase's date\n" : nil
    }

    private static func listCells(_ p: Purchase) -> (id: String, amount: String, home: String, rate: String, note: String) {
        let home = p.signedHome.map { Money.group(Money(minorUnits: $0, currency: p.conversion.homeCurrency).plainText) } ?? "—"
        let flag = p.conversion.home == nil ? "none" : p.conversion.source.rawValue + (p.conversion.provisional ? "*" : "")
        var note = safe(p.note)
        if let cat = p.category { note = "[\(safe(cat))] " + note }
        if p.kind == .refund {
            note = "refund of #\(p.refundOf.map(String.init) ?? "?")\(p.refundOfSharedID.map { " \($0)" } ?? "") " + note
        }
        if p.kind == .credit { note = "credit " + note }
        return ("#\(p.id)", money(p.signedTotal, p.currency), home, flag, note)
    }

    private static func listLine(_ cells: [String], _ layout: ListLayout) -> String {
        pad(cells[0], layout.idWidth) + "  " + pad(cells[1], 10) + "  " + pad(cells[2], layout.amountWidth, right: true) + "  "
            + pad(cells[3], layout.homeWidth, right: true) + "  " + pad(cells[4], layout.rateWidth) + "  " + cells[5] + "\n"
    }

    /// `trip trips`.
    public static func trips(_ trips: [Trip], current: Trip?) -> String {
        guard !trips.isEmpty else { return "No trips yet. Create one with `trip new NAME --currency CUR`." }
        return trips.map { t in
            let mark = t.id == current?.id ? "*" : " "
            var line = "\(mark) \(safe(t.name))  \(t.localCurrency?.code ?? "-")→\(t.homeCurrency.code)"
            if let s = t.start { line += "  \(s)…\(t.end?.description ?? "")" }
            if !t.presets.isEmpty { line += "  preset \(t.presets.joined(separator: ", "))" }
            if t.closedAt != nil { line += "  (closed)" }
            return line
        }.joined(separator: "\n")
    }

    /// `trip close`: a warning naming the purchases whose conversion the close freezes while not
    /// final (provisional or unconverted), or `nil` when there are none.
    public static func closeWarning(_ t: Trip, _ purchases: [Purchase]) -> String? {
        let unconverted = purchases.filter { $0.conversion.home == nil }.map { "#\($0.id)" }
        let provisional = purchases.filter { $0.conversion.home != nil && $0.conversion.provisional }.map { "#\($0.id)" }
        var parts: [String] = []
        if !provisional.isEmpty {
            parts.append(
                "\(provisional.count) purchase\(provisional.count == 1 ? "" : "s") at provisional rates (\(provisional.joined(separator: ", ")))")
        }
        if !unconverted.isEmpty {
            parts.append("\(unconverted.count) unconverted purchase\(unconverted.count == 1 ? "" : "s") (\(unconverted.joined(separator: ", ")))")
        }
        guard !parts.isEmpty else { return nil }
        return "warning: \(safe(t.name)) is closed with \(parts.joined(separator: " and ")); they stay so. "
            + "To convert them first: `trip reopen`, `trip rates sync` (or `trip rates set`), then `trip close` again"
    }

    /// `trip show`.
    public static func trip(_ t: Trip, report r: TripReport) -> String {
        var lines = [
            "\(safe(t.name))",
            "  local currency  \(t.localCurrency?.code ?? "(none; purchases default to home)")",
            "  home currency   \(t.homeCurrency.code)",
        ]
        if t.start != nil || t.end != nil { lines.append("  dates           \(t.start?.description ?? "?") … \(t.end?.description ?? "?")") }
        if !t.presets.isEmpty { lines.append("  presets         \(t.presets.joined(separator: ", "))") }
        if let b = t.budgetMinor { lines.append("  budget          \(money(b, t.homeCurrency))") }
        if let closed = t.closedAt {
            lines.append("  closed          \(closed.prefix(10)) (purchases and conversions frozen; `trip reopen` undoes it)")
        }
        lines.append("  purchases       \(r.purchaseCount)")
        lines.append("  total           \(money(r.totals.net, t.homeCurrency))")
        if r.provisionalCount > 0 { lines.append("  provisional     \(r.provisionalCount - r.unconvertedCount)") }
        if r.unconvertedCount > 0 { lines.append("  unconverted     \(r.unconvertedCount)") }
        return lines.joined(separator: "\n")
    }
}
