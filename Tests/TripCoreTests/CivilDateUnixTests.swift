import Testing

@testable import TripCore

struct CivilDateUnixTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01"), (1_724_025_751, "2024-08-19"), (86_399, "1970-01-01"), (86_400, "1970-01-02"),
        (951_782_400, "2000-02-29"), (951_868_799, "2000-02-29"), (951_868_800, "2000-03-01"),
        (1_709_164_800, "2024-02-29"), (4_107_542_400, "2100-03-01"), (-1, "1969-12-31"), (253_402_300_799, "9999-12-31"),
        (1_704_067_199, "2023-12-31"), (1_704_067_200, "2024-01-01"),
    ])
    func unixSecondsToUTCDate(seconds: Int64, date: String) throws {
        let civil = try #require(CivilDate(unixSeconds: seconds))
        #expect(civil.description == date)
        #expect(Int64(civil.daysSinceEpoch) == (seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400))
    }

    @Test func roundTripsEveryDayOfFourCenturies() {
        var previous: CivilDate?
        for day in -1000...(146_097 + 1000) {
            guard let date = CivilDate(unixSeconds: Int64(day) * 86_400 + 43_200) else { Issue.record("day \(day)"); return }
            if date.daysSinceEpoch != day || CivilDate(iso: date.description) != date { Issue.record("mismatch at \(day)"); return }
            if let previous, !(previous < date) { Issue.record("not increasing at \(day)"); return }
            previous = date
        }
    }

    @Test(arguments: [
        "2024-02-30", "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-1-01", "24-01-01",
        "2024/01/01", "2024-01-32", "2024-04-31", "２０２４-01-01", "",
    ])
    func rejectsInvalidText(text: String) {
        #expect(CivilDate(iso: text) == nil)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "1999-01-04", "2024-12-31"])
    func acceptsValidText(text: String) {
        #expect(CivilDate(iso: text)?.description == text)
    }
}
