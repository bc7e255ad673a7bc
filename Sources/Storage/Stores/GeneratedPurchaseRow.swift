import TripCore
import TripModel

extension PurchaseRow {
    /// A generated purchase's row (`Ledger.insertGenerated`, for benchmarks): every column set as
    /// given, nothing looked up. The memberwise initialiser, for the ledger's module.
    package static func generated(
        tripID: Int64, date: CivilDate, note: String, category: String?, paidWith: String?, currency: Currency, expression: String,
        inputs: AdjustmentInputs, breakdown: Breakdown, conversion: Conversion
    ) -> PurchaseRow {
        PurchaseRow(
            tripID: tripID, date: date, note: note, category: category, paidWith: paidWith, currency: currency, expression: expression,
            inputs: inputs, breakdown: breakdown, preset: nil, purchaseRate: nil, charged: nil, conversion: conversion)
    }
}
