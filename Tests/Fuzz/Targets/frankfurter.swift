// Fuzz target `frankfurter`: any body through `Frankfurter.parseDay` (with and without an asked
// date) and `Frankfurter.parseSeries`; this also covers the JSON scanner and `RateText`.
// Checks: an accepted batch keeps every `checkBatch` promise (EUR base, rates exact and > 0, dates
// not after today nor after the asked date nor outside start_date…end_date); every rejection is
// a one-line message without control characters.
import RateService
import TripCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrankfurter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let body = bytes(data, size)
    let provider = Frankfurter(baseURL: "https://api.frankfurter.dev/v1")
    let reply = response(body, contentType: "application/json", url: "https://api.frankfurter.dev/v1/latest")
    for asked in [nil, "2025-12-31"] {
        do {
            let batch = try provider.parseDay(reply, askedDate: asked, today: fuzzToday, isKnownCurrency: fuzzIsKnownCurrency)
            checkBatch(
                batch, provider: Frankfurter.providerName, base: "EUR",
                dates: CivilDate(year: 1, month: 1, day: 1)!...CivilDate(iso: asked ?? fuzzToday)!)
            require(batch.observations.isEmpty || Set(batch.observations.map(\.date)).count == 1, "a day body with several dates")
        } catch {
            requireOneLine(error.description, "frankfurter day")
        }
    }
    do {
        let batch = try provider.parseSeries(reply, to: "2026-03-01", today: fuzzToday, isKnownCurrency: fuzzIsKnownCurrency)
        checkBatch(
            batch, provider: Frankfurter.providerName, base: "EUR",
            dates: CivilDate(year: 1, month: 1, day: 1)!...CivilDate(iso: "2026-03-01")!)
    } catch {
        requireOneLine(error.description, "frankfurter series")
    }
    return 0
}
