import ArgumentParser
import TripLedger
import TripModel

/// The options `trip add` and `trip edit` share. On `edit`, an omitted option keeps the stored value.
struct PurchaseOptions: ParsableArguments {
    @Option(name: [.long, .customShort("n")], help: "A note (also: words after AMOUNT [CUR]).") var note: String?
    @Option(
        name: [.long, .customShort("d")], parsing: .unconditional,
        help: """
            Date: YYYY-MM-DD, today, yesterday, tomorrow, -N (days ago), mon…sun, or D/M when \
            date_order is set. add: default today; edit: keeps the stored date.
            """
    )
    var date: String?
    @Option(name: [.long, .customShort("c")], help: "Category, e.g. food, transport, lodging.") var category: String?
    @Option(help: "Discount: a percentage (20%) or an amount in the purchase currency (500).") var discount: String?
    @Option(help: "Service charge: a percentage of the discounted subtotal (10%) or an amount.") var service: String?
    @Option(help: "Tax: a percentage (9%) or an amount. Added unless --tax-included.") var tax: String?
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: "The price already contains the tax; it is shown as \"of which tax\".")
    var taxIncluded: Bool?
    @Option(help: "Tip: a percentage (15%, of the pre-tax subtotal by default) or an amount (15).") var tip: String?
    @Option(
        help: "Preset of tax/service/tip rules (JP, SG, US-NY, GB, DE, …; `trip config` lists them); none clears.", completion: Completions.presets)
    var preset: String?
    @Option(help: "Rounding mode for each step: half-up, half-even, floor or ceiling.", completion: Completions.roundingModes) var rounding: String?
    @Option(help: "Rate for this purchase: 1 unit of its currency = RATE home currency.") var rate: String?
    @Option(help: "What the card charged, in the home currency. Wins over any rate.") var charged: String?
    @Option(help: "How it was paid: cash, card, …") var paidWith: String?
    @Option(name: [.long, .customShort("t")], help: "The trip (default: the current trip).", completion: Completions.tripNames) var trip: String?
    @Option(help: "Group trips: who paid, NAME or NAME=AMOUNT,…,NAME=rest. Default: the member trip whoami names (required without one).")
    var paidBy: String?
    @Option(help: "Group trips: who shares it: all (default), ana,ben, ana=2,ben=1 (shares) or ana=60%,ben=40%.")
    var split: String?
    @Option(help: "Group trips: an itemised bill, NAME=AMOUNT,… (a name may repeat; one NAME=rest) adding up to the price.")
    var items: String?

    var splitDraft: SplitDraft { SplitDraft(paidBy: paidBy, split: split, items: items) }

    /// The `PurchaseTextFields` given, by key: each field's option above (none yet).
    var texts: [String: String?] { [:] }

    func draft(amount: String?, currency: String?) -> PurchaseDraft {
        var draft = PurchaseDraft(
            amount: amount, currency: currency, note: note, date: date, category: category,
            paidWith: paidWith, discount: discount, service: service, tax: tax, taxIncluded: taxIncluded,
            tip: tip, preset: preset, rounding: rounding, rate: rate, charged: charged, trip: trip)
        draft.texts = texts.compactMapValues { $0 }
        return draft
    }
}
