import TripModel

/// The columns of `purchases` that a charged amount decides (issue 37, reconcile): the amount, the
/// conversion it makes (home currency included), the explicit fields that record it was given,
/// and the update time. A statement's match writes these in place; `charged_source` beside them.
enum ChargedWriteColumn: Int32, PurchaseRowColumnSubset {
    case charged, homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource
    case rateProvider, rateFetchedAt, provisional, explicitFields, updatedAt

    static let row = rowColumns
}

extension PurchaseStore {
    private static let writeChargedSQL = "UPDATE purchases SET \(ChargedWriteColumn.assignments), charged_source = ? WHERE id = ?"

    /// Writes `row`'s `ChargedWriteColumn`s over purchase `id` in place, with `source` as where the
    /// charged amount came from (m0023). The caller has checked that `row` differs from the stored
    /// purchase in no other column, so the row ends as `replace` would leave it, without deleting
    /// and inserting it again (one statement, no index but the ones over these columns touched).
    /// Must run inside the caller's transaction.
    package func writeCharged(id: Int64, _ row: PurchaseRow, source: String?, now: String) throws {
        try db.run(
            Self.writeChargedSQL,
            ChargedWriteColumn.row.map { row.value($0, now: now, createdAt: now) } + [SQLValue(source), .integer(id)])
    }
}

extension PurchaseRow {
    /// Purchase `p` as stored, for comparing with a row built from it.
    package init(stored p: Purchase) {
        self.init(
            tripID: p.tripID, date: p.date, note: p.note, category: p.category, paidWith: p.paidWith, currency: p.currency,
            expression: p.expression, inputs: p.inputs, breakdown: p.breakdown, preset: p.preset, purchaseRate: p.purchaseRate,
            charged: p.chargedMinor, conversion: p.conversion, explicit: p.explicitFields, kind: p.kind, refundOf: p.refundOf)
    }

    /// Whether `self` and `other` hold the same value in every column but the
    /// `ChargedWriteColumn`s and the creation time: then `writeCharged` turns one into the other.
    package func differsOnlyInCharged(from other: PurchaseRow) -> Bool {
        let written = Set(ChargedWriteColumn.row)
        return PurchaseRow.Column.allCases.allSatisfy { column in
            column == .createdAt || written.contains(column)
                || value(column, now: "", createdAt: "") == other.value(column, now: "", createdAt: "")
        }
    }
}
