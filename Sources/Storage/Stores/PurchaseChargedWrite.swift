import TripModel

/// The columns of `purchases` that a charged amount decides (issue 37, reconcile): the amount, the
/// conversion it makes (home currency included), the explicit fields that record it was given,
/// and the update time. A statement's match writes these in place; `charged_source` beside them.
enum PurchaseChargedWrite: ColumnTable {
    static let fields: Set<String> = [
        "charged", "homeCurrency", "home", "homeDiscount", "homeService", "homeTax", "homeTip", "rate", "rateDate",
        "rateSource", "rateProvider", "rateFetchedAt", "provisional", "explicitFields", "updatedAt",
    ]
    static let targets = PurchaseColumns.all.filter { fields.contains($0.field) }
}

extension PurchaseStore {
    private static let writeChargedSQL = "UPDATE purchases SET \(PurchaseChargedWrite.assignments), charged_source = ? WHERE id = ?"

    /// Writes `row`'s `PurchaseChargedWrite` columns over purchase `id` in place, with `source` as where the
    /// charged amount came from (m0023). The caller has checked that `row` differs from the stored
    /// purchase in no other column, so the row ends as `replace` would leave it, without deleting
    /// and inserting it again (one statement, no index but the ones over these columns touched).
    /// Must run inside the caller's transaction.
    package func writeCharged(id: Int64, _ row: PurchaseRow, source: String?, now: String) throws {
        try db.run(
            Self.writeChargedSQL,
            PurchaseChargedWrite.targets.map { $0.value(row, now: now, createdAt: now) } + [SQLValue(source), .integer(id)])
    }
}

extension PurchaseRow {
    /// Purchase `p` as stored, for comparing with a row built from it.
    package init(stored p: Purchase) {
        self.init(p.values)
        kind = p.kind
        refundOf = p.refundOf
    }

    /// Whether `self` and `other` hold the same value in every column but the
    /// `PurchaseChargedWrite` columns and the creation time: then `writeCharged` turns one into the other.
    package func differsOnlyInCharged(from other: PurchaseRow) -> Bool {
        PurchaseInsert.targets.allSatisfy { column in
            column.field == "createdAt" || PurchaseChargedWrite.fields.contains(column.field)
                || column.value(self, now: "", createdAt: "") == column.value(other, now: "", createdAt: "")
        }
    }
}
