import Storage
import TripCore
import TripModel

/// A stored `payers` or `shares` text (`SplitWeights`) read from outside the library, as
/// `trip balances` and `trip export` read it: the `splits` fuzz target (Tests/Fuzz) checks the
/// readers of stored rows through these, as the `csv` target checks `CSVReader`.
public enum StoredSplit {
    /// The parts of `text` whose member is in `memberIDs` (join order), with their positions, or
    /// the one-line error `trip balances` gives, naming purchase `purchase`.
    public static func read(_ text: String, memberIDs: [Int64], purchase: Int64 = 1) throws(TripError) -> [(
        position: Int, weight: Rational
    )] {
        var text = text
        var parts: [(index: Int, weight: Rational)] = []
        let positions = SplitWeights.Positions(ids: memberIDs)
        var read: Result<Void, TripError> = .success(())
        text.withUTF8 { bytes in
            read = Result { () throws(TripError) in
                try SplitWeights.decode(bytes, index: positions, into: &parts, purchase: purchase, field: "split")
            }
        }
        try read.get()
        return parts.map { ($0.index, $0.weight) }
    }

    /// `text` as `trip export` writes its `split` cell (`NAME=WEIGHT,…`), or its error.
    public static func exportCell(_ text: String, members: [Member], purchase: Int64 = 1) throws(TripError) -> String {
        var text = text
        var cell: Result<String, TripError> = .success("")
        text.withUTF8 { bytes in
            cell = Result { () throws(TripError) in
                try GroupExport.cell(bytes, index: SplitWeights.Positions(members), members: members, purchase: purchase, field: "split")
            }
        }
        return try cell.get()
    }
}
