import Testing

import TripCore

/// A statement's day/month order is decided by its rows, never guessed (issue 37).
@Suite("Date order chosen by the rows")
struct DateChoiceTests {
    static func reads(_ cells: [String]) -> [String]? {
        guard case .patterns(let p) = DatePattern.choose(for: cells) else { return nil }
        return cells.map { c in p.lazy.compactMap { $0.validFields(c) }.first.map { "\($0.month)-\($0.day)" } ?? "?" }
    }

    @Test func thirtyFirstCanOnlyBeADay() {
        #expect(Self.reads(["12/28/2022", "12/31/2022", "01/02/2023"]) == ["12-28", "12-31", "1-2"])
        #expect(Self.reads(["28/12/2022", "31/12/2022", "02/01/2023"]) == ["12-28", "12-31", "1-2"])
    }

    @Test func noRowDecidesIsUndecided() {
        #expect(DatePattern.choose(for: ["03/04/2026", "04/05/2026"]) == .undecided(example: "03/04/2026"))
    }

    @Test func rowsThatDisagreeAreConflicting() {
        #expect(
            DatePattern.choose(for: ["31/12/2022", "12/31/2022", "03/04/2026"])
                == .conflicting(dayFirst: "31/12/2022", monthFirst: "12/31/2022"))
    }

    @Test func unambiguousFormsMixFreely() {
        #expect(Self.reads(["September 15", "2018 August 28", "Apr 8, 2018"]) == ["9-15", "8-28", "4-8"])
        #expect(Self.reads(["2026-03-01", "05.01.22", "03/03/2026"]) == ["3-1", "1-5", "3-3"])
    }
}
