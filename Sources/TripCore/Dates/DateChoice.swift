/// Which date patterns read a statement's date column, decided by its rows and never by a guess:
/// `12/31/2022` can only be month/day and `31/12/2022` only day/month, so one such row decides a
/// whole file; a file whose every date reads both ways (`03/04/2026`) is undecided.
public enum DateChoice: Sendable, Equatable {
    /// The patterns that read the file, in the order they are tried on each cell.
    case patterns([DatePattern])
    /// Some dates read as day/month and as month/day, and no date decides which.
    case undecided(example: String)
    /// One date reads only as day/month and another only as month/day.
    case conflicting(dayFirst: String, monthFirst: String)
}

extension DatePattern {
    /// Whether the pattern writes a numeric day before a numeric month (`DD/MM/YYYY`), the other way
    /// (`MM/DD/YYYY`), or neither (`YYYY-MM-DD`, whose year first settles it; `D MMM YYYY`).
    public enum Order: Sendable { case dayFirst, monthFirst }

    public var order: Order? {
        guard let d = tokens.firstIndex(of: .day), let m = tokens.firstIndex(of: .month) else { return nil }
        if let y = tokens.firstIndex(where: { $0 == .year4 || $0 == .year2 }), y < min(d, m) { return nil }
        return d < m ? .dayFirst : .monthFirst
    }

    /// Day, month and year of `text` when they make a calendar date (a year-less one in a leap year).
    public func validFields(_ text: String) -> (day: Int, month: Int, year: Int?)? {
        guard let f = fields(text), CivilDate(year: f.year ?? 2000, month: f.month, day: f.day) != nil else { return nil }
        return f
    }

    /// The patterns among `candidates` that read `cells`: every candidate whose order the rows do
    /// not rule out. A cell none reads is left for the row reader to refuse.
    public static func choose(for cells: [String], among candidates: [DatePattern] = known) -> DateChoice {
        var dayOnly: String?, monthOnly: String?, ambiguous: String?
        for cell in cells {
            var results: [Order: (day: Int, month: Int, year: Int?)] = [:]
            for p in candidates {
                guard let o = p.order, results[o] == nil, let f = p.validFields(cell) else { continue }
                results[o] = f
            }
            switch (results[.dayFirst], results[.monthFirst]) {
            case (let d?, let m?): if ambiguous == nil && (d.day != m.day || d.month != m.month) { ambiguous = cell }
            case (_?, nil): dayOnly = dayOnly ?? cell
            case (nil, _?): monthOnly = monthOnly ?? cell
            default: break
            }
        }
        guard let ambiguous else { return .patterns(candidates) }
        switch (dayOnly, monthOnly) {
        case (let d?, let m?): return .conflicting(dayFirst: d, monthFirst: m)
        case (_?, nil): return .patterns(candidates.filter { $0.order != .monthFirst })
        case (nil, _?): return .patterns(candidates.filter { $0.order != .dayFirst })
        case (nil, nil): return .undecided(example: ambiguous)
        }
    }
}
