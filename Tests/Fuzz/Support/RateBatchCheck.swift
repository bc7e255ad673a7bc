// Invariants of a validated `RateBatch`, shared by the provider fuzz targets (frankfurter,
// openerapi, ecb). Compiled into each of them by Tests/Fuzz/fuzz.sh.
import RateService
import TripCore

/// "Today" for every provider target: publication dates after it must be rejected.
let fuzzToday = "2026-03-08"

/// The caller's list of known codes: everything well formed except two withdrawn ones, so that
/// the "ignored codes" path is reachable. Also checks it is only ever asked about well-formed codes.
func fuzzIsKnownCurrency(_ code: String) -> Bool {
    require(isWellFormedCode(code), "isKnownCurrency asked about \(code.debugDescription)")
    return code != "CYP" && code != "HRK"
}

func isWellFormedCode(_ code: String) -> Bool {
    code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
}

/// Everything a batch promises: provider and base as asked, every rate an exact positive finite
/// decimal (`Rational` parses it and it is > 0), every quote a well-formed code other than the
/// base, every date a real day within `dates` and not after today, no (date, quote) twice,
/// `latestDate` the newest date, `ignoredCodes` sorted, unique, and none of them observed.
func checkBatch(_ batch: RateBatch, provider: String, base: String, dates: ClosedRange<CivilDate>? = nil) {
    let today = CivilDate(iso: fuzzToday)!
    require(batch.provider == provider && batch.base == base, "batch is \(batch.provider)/\(batch.base)")
    require(!batch.notModified, "a 200 body came back as notModified")
    var seen = Set<String>()
    var newest: String?
    for o in batch.observations {
        require(o.provider == provider && o.base == base, "observation \(o) has the wrong provider or base")
        require(isWellFormedCode(o.quote) && o.quote != base, "observation quote \(o.quote.debugDescription)")
        guard let date = CivilDate(iso: o.date) else { return require(false, "observation date \(o.date.debugDescription)") }
        require(date <= today, "observation date \(o.date) after today")
        if let dates { require(dates.contains(date), "observation date \(o.date) outside \(dates)") }
        require(seen.insert(o.date + " " + o.quote).inserted, "\(o.quote) twice on \(o.date)")
        guard let rate = Rational(decimalText: o.rate) else {
            return require(false, "accepted rate \(o.rate.debugDescription) for \(o.quote) is not an exact decimal")
        }
        require(rate > .zero, "accepted rate \(o.rate) for \(o.quote) is not positive")
        if newest.map({ o.date > $0 }) ?? true { newest = o.date }
    }
    if let newest, let latest = batch.latestDate { require(latest >= newest, "latestDate \(latest) before \(newest)") }
    if !batch.observations.isEmpty { require(batch.latestDate != nil, "latestDate missing") }
    require(
        batch.ignoredCodes == Array(Set(batch.ignoredCodes)).sorted(), "ignoredCodes not sorted/unique: \(batch.ignoredCodes)")
    let quotes = Set(batch.observations.map(\.quote))
    require(batch.ignoredCodes.allSatisfy { !quotes.contains($0) }, "a code is both ignored and observed")
}

/// A 200 response with `body` and the given content type, as `HTTPClient` would return it.
func response(_ body: [UInt8], contentType: String, url: String) -> HTTPResponse {
    HTTPResponse(status: 200, headers: ["content-type": contentType], body: body, url: url)
}
