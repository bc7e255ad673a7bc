import Storage
import TripLedger
import TripModel

/// What `trip export --format` writes. Every format is written one purchase at a time.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// The purchase CSV contract (`PurchaseCSV`), header first.
    case csv
    /// `{"purchases":[…]}`, each element the `--format json` purchase object.
    case json
    /// A plain-text journal that ledger-cli 3.3 and hledger 1.25 both read.
    case ledger
    /// A Beancount v2 file.
    case beancount
}
