import Storage
import TripCore
import TripModel

/// Words where a currency may stand, read by `CurrencyWord` among the currencies in use.
extension Ledger {
    /// `trip add`'s words after the amount (`PurchaseDraft.words`) read into the draft: the
    /// operator words that continue the amount, the currency a word names, and the note, which
    /// comes before `--note`'s.
    func readWords(of draft: inout PurchaseDraft, trip: Trip) throws {
        guard let amount = draft.amount, !draft.words.isEmpty else { return }
        let words = EntryWords(amount: amount, words: draft.words)
        var code: String?
        if let word = words.currency {
            code = try word.currency(
                among: word.needsCurrenciesInUse ? currenciesInUse(trip) : nil, retype: words.retype(code:), asNote: words.asNote)
        }
        draft.amount = words.amount
        draft.currency = code
        let note = words.note(currencyRead: code != nil).joined(separator: " ")
        if !note.isEmpty { draft.note = draft.note.map { note + " " + $0 } ?? note }
        draft.words = []
    }

    /// The currency `word` names where only a currency may stand (`trip convert 20 dollars`,
    /// `trip transfer Ana Ben 20 euros`): a code or a name, else refused with the nearest codes.
    func currency(word: String, field: String, trip: Trip?) throws -> Currency {
        let reading = CurrencyWord(word)
        let code = try reading.currency(among: reading.needsCurrenciesInUse ? currenciesInUse(trip) : nil, field: field)
        return try CurrencyTable.shared.currency(for: code ?? word)
    }

    /// The currencies a name is read among on `trip` (none: the ledger's alone).
    func currenciesInUse(_ trip: Trip?) throws -> CurrencyWord.InUse {
        var inUse = CurrencyWord.InUse(trip: [], ledger: [try defaultHome().currency.code])
        for (code, inTrip) in try purchaseStore.currenciesInUse(trip: trip?.id) {
            inUse.ledger.insert(code)
            if inTrip { inUse.trip.insert(code) }
        }
        return inUse
    }
}
