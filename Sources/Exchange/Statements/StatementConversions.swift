import Storage
import TripCore
import TripLedger

/// What a payment in another currency was charged in the currency that paid for it, read from
/// the currency conversion rows a wallet writes beside it.
///
/// PayPal pays a USD purchase from a EUR balance or bank account with three rows: the payment
/// (`-15.00 USD`, `Transaction ID` X) and a conversion in two legs, each naming X in `Reference Txn
/// ID`: `+15.00 USD` (the currency bought) and `-13.92 EUR` (what it cost). The payment is then
/// charged 13.92 in a EUR trip, the amount the traveller really paid, never a rate's estimate.
///
/// A charge is taken only when the legs say it without doubt: one leg in the payment's currency
/// for exactly its amount and the other way, one leg in the trip's home currency the same way as
/// the payment, and nothing else. Anything else (a payment paid partly from a USD balance, a leg
/// that does not read) leaves the row without a charge, as if the file had no conversion.
struct StatementConversions {
    private struct Leg {
        let currency: Currency
        let minorUnits: Int64
        let isNegative: Bool
    }

    /// The legs of each conversion, by the id of the row it paid for; `nil` when a leg did not read.
    private var legs: [String: [Leg]?] = [:]

    /// The conversion legs among `rows`: the rows `profile` calls `exchange` whose `conversion_of`
    /// cell names another row. `cell` reads a row's cell by column name.
    init(rows: ArraySlice<[String]>, profile: StatementProfile, cell: ([String], String?) -> String) {
        guard let of = profile.conversionOf else { return }
        for row in rows where profile.kind(of: cell(row, profile.type ?? profile.note)) == .skip("exchange") {
            let target = cell(row, of)
            guard !target.isEmpty else { continue }
            let leg = Self.leg(row, profile: profile, cell: cell)
            switch (legs[target], leg) {
            case (.none, let leg?): legs[target] = [leg]
            case (.some(.some(let found)), let leg?): legs[target] = found + [leg]
            default: legs[target] = .some(nil)
            }
        }
    }

    private static func leg(_ row: [String], profile: StatementProfile, cell: ([String], String?) -> String) -> Leg? {
        guard let amountColumn = profile.amount,
            let currency = try? CurrencyTable.shared.currency(for: cell(row, profile.currency)),
            let amount = try? StatementAmount.read(cell(row, amountColumn), field: amountColumn, currency: { currency }),
            amount.writtenCurrency.map({ $0 == currency.code }) ?? true
        else { return nil }
        return Leg(currency: currency, minorUnits: amount.minorUnits, isNegative: amount.isNegative)
    }

    /// The amount in `home` that the row `id` (`amount` of `currency`, negative or not) was paid
    /// with, or `nil` when no conversion says it without doubt.
    func charged(id: String, amount: Int64, isNegative: Bool, currency: Currency, home: Currency) -> Int64? {
        guard !id.isEmpty, currency != home, let found = legs[id], let legs = found, legs.count == 2 else { return nil }
        guard let bought = legs.first(where: { $0.currency == currency }), bought.minorUnits == amount,
            bought.isNegative != isNegative,
            let paid = legs.first(where: { $0.currency == home }), paid.isNegative == isNegative, paid.minorUnits != 0
        else { return nil }
        return paid.minorUnits
    }
}
