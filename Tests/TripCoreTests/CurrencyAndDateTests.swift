import Testing

@testable import TripCore

@Suite("ISO 4217 table")
struct CurrencyTableTests {
    @Test("minor units from ISO 4217", arguments: [("JPY", 0), ("USD", 2), ("KWD", 3), ("EUR", 2), ("TWD", 2), ("CLF", 4), ("HRK", 2)])
    func minorUnits(code: String, minor: Int) throws {
        #expect(try CurrencyTable.shared.currency(for: code).minorUnits == minor)
    }

    @Test func caseInsensitive() throws {
        #expect(try CurrencyTable.shared.currency(for: "jpy").code == "JPY")
        #expect(try CurrencyTable.shared.currency(for: "Eur").code == "EUR")
    }

    @Test func unknownCodeSuggestsNearest() {
        #expect(CurrencyTable.shared.suggestions(for: "UDS").contains("USD"))
        #expect(CurrencyTable.shared.suggestions(for: "EUE").contains("EUR"))
        do {
            _ = try CurrencyTable.shared.currency(for: "UDS")
            Issue.record("UDS accepted")
        } catch {
            #expect(error.description.contains("\"UDS\""))
            #expect(error.description.contains("USD"))
        }
    }

    @Test func codesWithoutMinorUnitsCannotHoldMoney() {
        #expect(throws: TripError.currencyWithoutMinorUnits("XAU")) { try CurrencyTable.shared.currency(for: "XAU") }
    }

    @Test func tableMatchesTheSharedFixture() {
        // 178 active codes in config/iso4217.csv, of which 13 (gold, SDR, test codes…) have N.A. minor units.
        #expect(CurrencyTable.shared.codes.filter { CurrencyTable.shared.isActiveCode($0) }.count == 178 - 13)
        #expect(!CurrencyTable.shared.isActiveCode("HRK"))
    }
}

@Suite("Civil dates")
struct CivilDateTests {
    @Test(
        "valid and invalid dates",
        arguments: [
            ("2024-02-29", true), ("2023-02-29", false), ("2026-02-30", false), ("0000-01-01", false),
            ("10000-01-01", false), ("2026-13-01", false), ("2026-1-1", false), ("9999-12-31", true), ("abcd-ef-gh", false),
        ])
    func parsing(text: String, valid: Bool) {
        #expect((CivilDate(iso: text) != nil) == valid)
    }

    @Test func epochRoundTrip() throws {
        for text in ["1970-01-01", "2000-02-29", "2026-03-02", "0001-01-01", "9999-12-31"] {
            let d = try #require(CivilDate(iso: text))
            #expect(CivilDate(daysSinceEpoch: d.daysSinceEpoch) == d)
        }
        #expect(CivilDate(iso: "1970-01-02")!.daysSinceEpoch == 1)
        #expect(CivilDate(iso: "2026-03-07")!.weekday == 5)  // a Saturday
    }

    @Test func pinnedToday() throws {
        let clock = try Clock.fromEnvironment(["TRIP_TODAY": "2026-03-02"])
        #expect(clock.today.description == "2026-03-02")
        #expect(try clock.date("yesterday", field: "date").description == "2026-03-01")
        #expect(throws: TripError.self) { try Clock.fromEnvironment(["TRIP_TODAY": "2026-02-30"]) }
    }
}
