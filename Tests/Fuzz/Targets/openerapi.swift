// Fuzz target `openerapi`: any body through `OpenERAPI.parseLatest` for base USD.
// Checks: an accepted batch keeps every `checkBatch` promise (USD base, rates exact and > 0, the
// publication day not after today); a provider error ("result":"error") and every other
// rejection is a one-line message without control characters.
import RateService
import TripCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenERAPI(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let reply = response(bytes(data, size), contentType: "application/json", url: "https://open.er-api.com/v6/latest/USD")
    do {
        let batch = try OpenERAPI().parseLatest(reply, base: "USD", today: fuzzToday, isKnownCurrency: fuzzIsKnownCurrency)
        checkBatch(batch, provider: OpenERAPI.providerName, base: "USD")
        require(Set(batch.observations.map(\.date)).count <= 1, "a latest body with several dates")
    } catch {
        requireOneLine(error.description, "open.er-api")
    }
    return 0
}
