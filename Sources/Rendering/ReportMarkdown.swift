import TripCore
import TripModel

/// `trip report --format markdown`: GitHub-flavoured tables, for pasting into a message or a wiki.
public enum ReportMarkdown {
    /// A table cell: no line breaks, `|` and `\` escaped, control characters made visible.
    static func cell(_ s: String) -> String {
        TextFormat.safe(s).replacingBytes("\\", with: "\\\\").replacingBytes("|", with: "\\|")
    }

    public static func render(_ reports: [TripReport]) -> String {
        reports.map(render).joined(separator: "\n\n")
    }

    public static func render(_ r: TripReport) -> String {
        var out = ["## \(cell(r.trip.name))", "", "\(r.subtitle). \(r.currencyNote).", ""]
        out.append("| | \(r.home.code) |")
        out.append("|---|---:|")
        for (label, amount) in r.totalRows {
            out.append(label == "net total" ? "| **\(label)** | **\(r.money(amount))** |" : "| \(label) | \(r.money(amount)) |")
        }
        if r.totals.taxIncluded != 0 { out.append("| of which tax (included in prices) | \(r.money(r.totals.taxIncluded)) |") }
        if r.days > 0 { out.append("| per day (\(r.days) days) | \(r.money(r.averagePerDay)) |") }
        if let b = r.budgetText { out += ["", cell(b).capitalizedFirst + "."] }
        if !r.groups.isEmpty {
            // By member, what each paid beside their share.
            let paid = r.groups.contains { $0.paid != nil }
            out += [
                "", "### \(r.groupTitle)", "", "| | \(r.home.code) | share |\(paid ? " paid |" : "") purchases |",
                "|---|---:|---:|\(paid ? "---:|" : "")---:|",
            ]
            for l in r.groups {
                let amount = l.isUnconverted ? "unconverted" : r.money(l.home)
                let paidCell = paid ? " \(l.paid.map { r.money($0) } ?? "") |" : ""
                out.append(
                    "| \(cell(r.groupLabel(l))) | \(amount) | \(l.isUnconverted ? "" : r.share(l.home)) |\(paidCell) \(TripReport.count(l.count)) |")
            }
        }
        if r.grouping != .currency && !r.byCurrency.isEmpty {
            out += ["", "### By currency paid", "", "| paid | \(r.home.code) | purchases |", "|---:|---:|---:|"]
            for l in r.byCurrency {
                guard let c = CurrencyTable.shared.lookup(l.key), let o = l.original else { continue }
                let amount = l.isUnconverted ? "unconverted" : r.money(l.home)
                out.append("| \(Money(minorUnits: o, currency: c).formatted) | \(amount) | \(TripReport.count(l.count)) |")
            }
        }
        out += ["", "### Rates", "", "| rate | purchases | \(r.home.code) |", "|---|---:|---:|"]
        for p in r.provenance {
            out.append("| \(TripReport.provenanceLabel(p)) | \(TripReport.count(p.count)) | \(p.source == .none ? "" : r.money(p.home)) |")
        }
        for w in r.warnings { out += ["", "> **Warning:** \(cell(w))"] }
        if !r.lines.isEmpty {
            out += [
                "", "### Purchases", "", "| date | note | category | paid | total | rate | source | \(r.home.code) |",
                "|---|---|---|---:|---:|---:|---|---:|",
            ]
            for p in r.lines {
                let q = p.conversion.quote
                let home = TripReport.lineHome(p)
                out.append(
                    "| \(p.date) | \(cell(TripReport.lineNote(p))) | \(cell(p.category ?? "")) | \(Money(minorUnits: p.kind.sign * p.breakdown.price, currency: p.currency).formatted) | \(Money(minorUnits: p.signedTotal, currency: p.currency).formatted) | \(q?.rate ?? "") | \(p.conversion.source.rawValue)\(p.conversion.provisional ? " (provisional)" : "") | \(home) |"
                )
            }
        }
        if !r.memberLines.isEmpty {
            out += [
                "", "### \(cell(r.member ?? ""))'s part of each purchase", "",
                "| date | note | category | paid | portion | share | \(r.home.code) |", "|---|---|---|---:|---:|---:|---:|",
            ]
            for l in r.memberLines {
                let home = TripReport.memberLineHome(l)
                out.append(
                    "| \(l.date) | \(cell(l.note)) | \(cell(l.category ?? "")) | \(Money(minorUnits: l.total, currency: l.currency).formatted) | \(l.portionText) | \(Money(minorUnits: l.share, currency: l.currency).formatted) | \(home) |"
                )
            }
            out.append("| | | | | | total | \(r.money(r.memberLines.reduce(Int64(0)) { $0 + ($1.homeShare ?? 0) })) |")
        }
        return out.joined(separator: "\n")
    }
}

extension String {
    /// Replaces every occurrence of one ASCII substring (no Foundation).
    func replacingBytes(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
