// Fuzz target `ecb`: any body through `ECBXML.parse` (the `<Cube>` scanner and the collector).
// Checks: an accepted batch keeps every `checkBatch` promise (EUR base, rates exact and > 0, dates
// real and not after today) and has at least one observation or ignored code per date; every
// rejection is a one-line message without control characters.
import RateService
import TripCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzECB(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let reply = response(
        bytes(data, size), contentType: "text/xml",
        url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml")
    do {
        let batch = try ECBXML().parse(reply, today: fuzzToday, isKnownCurrency: fuzzIsKnownCurrency)
        checkBatch(batch, provider: ECBXML.providerName, base: "EUR")
        require(batch.latestDate != nil, "an accepted ECB body without a date")
    } catch {
        requireOneLine(error.description, "ecb")
    }
    return 0
}
