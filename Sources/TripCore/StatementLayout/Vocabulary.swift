extension StatementInference {
    /// The words banks name their columns and row types with, as the shipped profiles and public
    /// importers' fixtures show them. A name or value not listed here decides nothing: the choice
    /// is then left to the rows, or refused.
    enum Vocabulary {
        /// Header words (lower case, whole words) of the amount paid.
        static let amount = ["amount", "betrag", "bedrag", "montant", "importe", "importo", "belopp", "beløp", "beløb", "kwota"]
        /// Header words of a column of numbers that is not the amount paid, whatever else it says.
        static let notTheAmount = [
            "balance", "saldo", "original", "foreign", "fremdwährungsbetrag", "ursprünglicher", "ursprungsbetrag", "local",
            "exchange", "fee", "fees", "card no.", "card", "id", "reference", "kundenreferenz", "running", "limit",
        ]
        /// Words that make `Debit` or `Credit` part of another name (`Credit Limit`, `Debit Card`).
        static let amountInName = ["card", "limit", "interest"]
        static let moneyOut = ["debit", "paid out", "money out", "withdrawal", "withdrawals", "soll", "ausgang", "belastung"]
        static let moneyIn = ["credit", "paid in", "money in", "deposit", "deposits", "haben", "eingang"]
        static let foreignAmount = [
            "original", "foreign", "fremdwährungsbetrag", "ursprünglicher", "exchange out", "local amount", "local currency",
            "original currency",
        ]
        static let currency = ["currency", "währung", "waehrung", "devise", "moneda", "ccy", "curr"]
        /// A date column so named is when the bank booked the row, not when the purchase was made.
        static let postingDate = [
            "post", "posted", "posting", "valuta", "valutadatum", "value", "wertstellung", "completed", "settled", "settlement",
        ]
        /// Header words of the description, the first found wins.
        static let description = [
            "description", "beschreibung", "umsatzbeschreibung", "naam / omschrijving", "omschrijving", "merchant", "payee",
            "counter party", "name", "auftraggeber/empfänger", "beguenstigter/zahlungspflichtiger", "details", "reference",
            "empfänger", "zahlungsempfänger", "counterparty", "verwendungszweck", "narrative", "memo",
        ]
        static let typeColumn: Set<String> = [
            "type", "transaction type", "typ", "umsatztyp", "buchungstext", "mutatiesoort", "buchungsart", "transaktionstyp",
        ]
        static let completed: Set<String> = ["cleared", "completed", "posted", "booked", "settled", "gebucht", "umsatz gebucht"]
        static let pending: Set<String> = ["pending", "vorgemerkt", "umsatz vorgemerkt", "authorised", "authorized"]
        static let notCompleted: Set<String> = ["declined", "reverted", "failed", "cancelled", "canceled"]
        static let directionOut: Set<String> = ["af", "d", "dr", "debit", "s", "soll"]
        static let directionIn: Set<String> = ["bij", "c", "cr", "credit", "h", "haben"]

        /// What a type column's value means; `nil` when it is not known.
        static func typeKind(_ value: String) -> StatementLayout.RowKind? {
            let v = value.lowercased().trimmingSpaces
            for (kind, values) in types where values.contains(v) { return kind }
            return nil
        }

        static let types: [(StatementLayout.RowKind, Set<String>)] = [
            (
                .purchase,
                [
                    "sale", "purchase", "card payment", "card_payment", "kartenzahlung", "lastschrift", "folgelastschrift",
                    "erstlastschrift", "pos", "betaalautomaat", "presentment", "mastercard payment", "debit mastercard payment",
                    "online payment", "onlinezahlung", "im geschäft", "contactless",
                ]
            ),
            (.refund, ["return", "refund", "card refund", "card_refund"]),
            (.fee, ["fee", "fees", "entgelt"]),
            (.skip("card settlement"), ["payment", "card_credit", "ausgleich"]),
            (
                .skip("transfer"),
                [
                    "transfer", "überweisung", "echtzeitüberweisung", "dauerauftrag", "faster payment", "standing order",
                    "internal transfer", "bank transfer", "overschrijving", "online bankieren", "periodieke overschrijving",
                    "credit transfer", "debit transfer", "outgoing transfer", "incoming transfer", "moneybeam", "ueberweisung",
                    "online-ueberweisung", "gutschr. ueberweisung", "echtzeit-ueberweisung", "pot transfer",
                ]
            ),
            (.skip("salary"), ["salary", "gehalt/rente", "lohn gehalt", "income", "lohn", "gehalt"]),
            (.skip("interest"), ["interest", "deposit interest", "zinsen", "zinsgutschrift", "abschluss"]),
            (.skip("top-up"), ["topup", "top up", "top-up"]),
            (.skip("exchange"), ["exchange"]),
        ]

        /// Descriptions of rows that are not spending, as `*` patterns. Payments to the card and
        /// refunds are money in; their sign says how the file writes spending.
        static let descriptionRules: [(StatementLayout.RowKind, [String])] = [
            (
                .skip("card settlement"),
                [
                    "*payment*thank you*", "*payment - thank*", "*payment received*", "*autopay*", "*automatic payment*",
                    "*directpay*", "ausgleich kreditkarte*", "*kreditkartenabrechnung*",
                ]
            ),
            (.refund, ["*refund*", "gutschrift*", "*erstattung*"]),
            (.skip("top-up"), ["top-up by *", "top-up *", "topup *"]),
            (.skip("exchange"), ["exchanged to *", "exchanged from *"]),
            (.skip("transfer"), ["transfer to *", "transfer from *", "payment to *", "payment from *"]),
        ]

        /// Whether a description says the row is money in: a payment to the card or a refund.
        static func isMoneyIn(_ description: String) -> Bool {
            let d = description.lowercased()
            return descriptionRules.prefix(2).contains { _, patterns in patterns.contains { glob($0, d) } }
        }
    }
}
