import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripBench {
    /// Group trips: `balances` and `settle` over a 20,000-purchase trip of 12 members with every
    /// kind of split and several payers, and `trip add --split` on it.
    static func groupRows(tripBinary: String, dataDir: String, measure: Bool = true) throws -> [(String, Double, Double?)] {
        let today = CivilDate(iso: "2026-03-10")!
        let template = dataDir + "/group-template-\(schemaTag).sqlite"
        let names = ["Ana", "Ben", "Carla", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea"]
        if access(template, F_OK) != 0 {
            let started = now()
            let partial = template + ".partial"
            for suffix in ["", "-wal", "-shm"] { unlink(partial + suffix) }
            let ledger = try Ledger(path: partial, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"))
            var rng = Random(state: seed)
            try ledger.inOneTransaction {
                try ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
                _ = try ledger.addMembers(names, trip: "Group")
                for i in 0..<20_000 {
                    let payer = names[rng.below(12)], other = names[rng.below(12)]
                    let amount = 500 + rng.below(30_000)
                    let split: SplitDraft
                    switch i % 4 {
                    case 0: split = SplitDraft(paidBy: payer)
                    case 1: split = SplitDraft(paidBy: payer, split: names.shuffledPrefix(3 + rng.below(8), &rng).joined(separator: ","))
                    case 2:
                        split = SplitDraft(
                            paidBy: "\(payer)=\(amount / 3),\(other == payer ? names[(names.firstIndex(of: payer)! + 1) % 12] : other)=rest",
                            split: names.map { "\($0)=\(1 + rng.below(3))" }.joined(separator: ","))
                    default: split = SplitDraft(paidBy: payer, split: "\(names[rng.below(6)])=60%,\(names[6 + rng.below(6)])=40%")
                    }
                    _ = try ledger.addPurchase(
                        PurchaseDraft(
                            amount: String(amount), currency: i % 5 == 0 ? "EUR" : "JPY",
                            date: today.adding(days: -rng.below(30))!.description,
                            rate: "0.0061"), split: split)
                }
            }
            try ledger.checkpoint()
            for suffix in ["-wal", "-shm"] { unlink(partial + suffix) }
            guard rename(partial, template) == 0 else { fatalError("cannot rename \(partial)") }
            print("generated a 20,000-purchase group trip of 12 members in \(format(now() - started))")
        }
        guard measure else { return [] }
        let path = dataDir + "/group.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        copyFile(template, path)
        let env = ["TRIP_DB=\(path)", "TRIP_TODAY=\(today)", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"]
        return [
            ("trip balances (20,000 purchases, 12 members)", median(20) { run(tripBinary, ["balances"], env) }, 50),
            ("trip settle (same trip)", median(20) { run(tripBinary, ["settle"], env) }, 50),
            (
                "trip list --format json (same trip: paid_by and split)",
                median(10) { run(tripBinary, ["list", "--format", "json"], env) }, nil
            ),
            (
                "trip add --split (same trip)",
                median(20) { run(tripBinary, ["add", "1200", "--split", "ana=2,ben=1,carla=1", "--paid-by", "dan"], env) }, 10
            ),
        ]
    }
}

extension Array where Element == String {
    /// The first `n` elements after a seeded shuffle.
    fileprivate func shuffledPrefix(_ n: Int, _ rng: inout TripBench.Random) -> [String] {
        var copy = self
        for i in stride(from: copy.count - 1, to: 0, by: -1) { copy.swapAt(i, rng.below(i + 1)) }
        return Array(copy.prefix(n))
    }
}
