import TripCore
import TripModel

extension TextFormat {
    /// `trip report` for people. On a terminal (`bars`) each breakdown line gets a bar scaled to
    /// its share; `color` adds ANSI colour and is only ever set on a TTY without `NO_COLOR`.
    /// `width` is the terminal's: a group label too long for its table line is cut with `…`.
    public static func report(_ r: TripReport, bars: Bool = false, color: Bool = false, width: Int = 80) -> String {
        func paint(_ s: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        var out = [paint(safe(r.trip.name), "1") + " · " + r.subtitle, "", r.currencyNote]
        let amounts = r.totalRows.map { r.money($0.1) }
        let w = max(amounts.map(\.count).max() ?? 0, 8)
        for (i, row) in r.totalRows.enumerated() {
            let line = "  \(pad(row.0, 16)) \(pad(amounts[i], w, right: true))"
            out.append(row.0 == "net total" ? paint(line, "1") : line)
        }
        if r.totals.taxIncluded != 0 {
            out.append("  \(pad("of which tax", 16)) \(pad(r.money(r.totals.taxIncluded), w, right: true))  (included in prices)")
        }
        if r.days > 0 {
            out.append(
                "  \(pad("per day", 16)) \(pad(r.money(r.averagePerDay), w, right: true))  average over \(TripReport.count(r.days)) day\(r.days == 1 ? "" : "s")"
            )
        }
        if let b = r.budgetText { out.append("  " + b) }

        if !r.groups.isEmpty {
            out.append("")
            out.append(r.groupTitle)
            let cells = r.groups.map { l in l.isUnconverted ? ("unconverted", "") : (r.money(l.home), r.share(l.home)) }
            let aw = max(w, cells.map(\.0.count).max() ?? 0), sw = cells.map(\.1.count).max() ?? 0
            let counts = r.groups.map { l in
                "  (\(TripReport.count(l.count))\(l.unconverted > 0 && l.unconverted < l.count ? ", \(TripReport.count(l.unconverted)) unconverted" : "")"
                    + (l.paid.map { ", paid \(r.money($0))" } ?? "") + ")"
            }
            // What a line holds besides its label; the label gets the rest of the width, at least 8.
            let rest = 2 + 2 + aw + 2 + sw + (bars ? 32 : 0) + (counts.map(\.count).max() ?? 0)
            let labels = r.groups.map { cut(safe(r.groupLabel($0)), to: max(8, width - rest)) }
            let kw = labels.map(\.count).max() ?? 0
            let top = max(1, r.groups.map(\.home).max() ?? 1)
            for (i, l) in r.groups.enumerated() {
                var line = "  \(pad(labels[i], kw))  \(pad(cells[i].0, aw, right: true))  \(pad(cells[i].1, sw, right: true))"
                if bars {
                    let width = Int(Int128(max(0, l.home)) * 30 / Int128(top))
                    line += "  " + paint(pad(String(repeating: "█", count: width), 30), "36")
                }
                out.append(line + counts[i])
            }
        }
        if r.grouping != .currency, r.byCurrency.count > 1 || r.byCurrency.first?.key != r.home.code, !r.byCurrency.isEmpty {
            out.append("")
            out.append("By currency paid")
            for l in r.byCurrency {
                guard let c = CurrencyTable.shared.lookup(l.key), let o = l.original else { continue }
                let converted =
                    l.isUnconverted
                    ? "unconverted"
                    : Money(minorUnits: l.home, currency: r.home).formatted
                        + (l.unconverted > 0 ? " (+\(TripReport.count(l.unconverted)) unconverted)" : "")
                out.append("  \(pad(money(o, c), 20, right: true))  →  \(converted)  (\(TripReport.count(l.count)))")
            }
        }
        out.append("")
        out.append("Rates")
        for p in r.provenance {
            let amount = p.source == .none ? "" : Money(minorUnits: p.home, currency: r.home).formatted
            out.append("  \(pad(TripReport.provenanceLabel(p), 36)) \(pad(TripReport.count(p.count), 6, right: true))  \(amount)")
        }
        for w in r.warnings { out.append(paint("warning: " + w, "33")) }
        if !r.lines.isEmpty {
            out.append("")
            out.append(list(r.trip, r.lines))
        }
        if !r.memberLines.isEmpty {
            out.append("")
            out.append(memberLines(r))
        }
        return out.joined(separator: "\n")
    }

    /// `s` if it has at most `width` characters, else its first `width - 1` and `…`.
    static func cut(_ s: String, to width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
    }

    /// `trip report --all`: each trip, then the net per home currency.
    public static func reports(_ rs: [TripReport], bars: Bool = false, color: Bool = false, width: Int = 80) -> String {
        guard !rs.isEmpty else { return "No trips yet." }
        var sums: [String: (Currency, Int64)] = [:]
        for r in rs { sums[r.home.code, default: (r.home, 0)].1 += r.totals.net }
        let summary =
            ["All trips"]
            + sums.keys.sorted().map { code in
                "  net total \(Money(minorUnits: sums[code]!.1, currency: sums[code]!.0).formatted)"
            }
        return (rs.map { report($0, bars: bars, color: color, width: width) } + [summary.joined(separator: "\n")]).joined(separator: "\n\n")
    }

    /// `trip demo`: the sample trip's report, and where its ledger was kept (`--keep`).
    public static func demo(_ report: TripReport, keptAt path: String?) -> String {
        TextFormat.report(report) + (path.map { "\n\nledger kept at \($0)" } ?? "")
    }
}
