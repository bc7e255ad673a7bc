import Storage
import TripCore
import TripLedger
import TripModel

/// The rates a pull stores: each is checked (`PulledRate`) and kept for the shared trip it was
/// pulled from only (`RateScope`). A change that fails a check throws, and the pull sets it aside.
extension Ledger {
    /// A rate set by hand on another device (or this one, back from the server): merged into
    /// the trip's manual rates (`mergeManualRate`), which convert that trip's purchases only.
    /// One that is not a rate (`PulledRate`) throws: the change is set aside.
    func receiveManualRate(payload: String, trip tripID: Int64) throws {
        let fields = try pulledRateFields(payload, kind: "manual_rate")
        let base = try PulledRate.currency(fields.text("base"), field: "base")
        let quote = try PulledRate.currency(fields.text("quote"), field: "quote")
        guard base != quote else { throw TripError.badTextValue(field: "quote", value: quote.code, reason: "is the same as base") }
        let date = try PulledRate.date(fields.text("date"), field: "date")
        let rate = try PulledRate.rate(fields.text("rate"), field: "rate")
        guard let createdAt = fields.text("created_at"), let device = fields.text("device"), let hlc = fields.integer("hlc") else {
            throw TripError.badText(field: "manual_rate", reason: "has no created_at, device or hlc")
        }
        try rateStore.mergeManualRate(
            ManualRateVersion(rate: ManualRate(base: base, quote: quote, date: date, rate: rate), createdAt: createdAt, hlc: hlc, device: device),
            trip: tripID)
    }

    /// A provider's rate fetched on another device: kept for the trip's purchases only. One that
    /// is not a rate of two known currencies on a real day throws: the change is set aside.
    func receiveObservation(payload: String, trip tripID: Int64) throws {
        let fields = try pulledRateFields(payload, kind: "rate")
        let base = try PulledRate.currency(fields.text("base"), field: "base")
        let quote = try PulledRate.currency(fields.text("quote"), field: "quote")
        guard base != quote else { throw TripError.badTextValue(field: "quote", value: quote.code, reason: "is the same as base") }
        let date = try PulledRate.date(fields.text("date"), field: "date")
        let rate = try PulledRate.rate(fields.text("rate"), field: "rate")
        guard let provider = fields.text("provider"), !provider.isEmpty, let fetchedAt = fields.text("fetched_at") else {
            throw TripError.badText(field: "rate", reason: "has no provider or fetched_at")
        }
        try rateStore.receiveObservation(
            RateObservation(provider: provider, base: base.code, quote: quote.code, date: date.description, rate: rate), fetchedAt: fetchedAt,
            trip: tripID)
    }

    /// A provider's newest published date, sent with its rates: kept for the trip's purchases only.
    func receiveProviderState(payload: String, trip tripID: Int64) throws {
        let fields = try pulledRateFields(payload, kind: "provider")
        let base = try PulledRate.currency(fields.text("base"), field: "base")
        let latest = try PulledRate.date(fields.text("latest_date"), field: "latest_date")
        guard let provider = fields.text("provider"), !provider.isEmpty, let url = fields.text("url") else {
            throw TripError.badText(field: "provider", reason: "has no provider or url")
        }
        try rateStore.receiveProviderState(
            provider: provider, url: url, base: base.code, latestDate: latest.description, trip: tripID, receivedAt: clock.now)
    }

    /// A rate this device sent into shared trip `tripID`, kept for the trip as a pull keeps it:
    /// this device's own may change later, the trip's copy stays what the others have. One the
    /// others set aside (`PulledRate`) is not kept.
    func keepSentRate(_ c: SyncChange, trip tripID: Int64) throws {
        let payload = c.payload ?? ""
        do {
            switch c.kind {
            case "rate": try receiveObservation(payload: payload, trip: tripID)
            case "provider": try receiveProviderState(payload: payload, trip: tripID)
            case "manual_rate": try receiveManualRate(payload: payload, trip: tripID)
            default: break
            }
        } catch is TripError {
            return
        }
    }

    /// The fields of a pulled rate's payload, which is always flat JSON; else it throws.
    private func pulledRateFields(_ payload: String, kind: String) throws -> PulledRateFields {
        guard let fields = FlatJSON.fields(payload) else { throw TripError.badText(field: kind, reason: "is not a flat JSON object") }
        return PulledRateFields(fields: fields)
    }
}

/// A flat payload's values by key.
struct PulledRateFields {
    let fields: [(String, SQLValue)]

    func text(_ key: String) -> String? {
        guard case .text(let value)? = fields.first(where: { $0.0 == key })?.1 else { return nil }
        return value
    }

    func integer(_ key: String) -> Int64? {
        guard case .integer(let value)? = fields.first(where: { $0.0 == key })?.1 else { return nil }
        return value
    }
}
