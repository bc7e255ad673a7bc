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
            let started = wallNow()
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
            print("generated a 20,000-purchase group trip of 12 members in \(formatTime(wallNow() - started))")
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

extension TripBench {
    /// Group imports and exports against plain ones of the same rows (issue 27): 100,000 purchases
    /// of a 6-member trip, each paid by one or two members and split among 2 to 6, exported as CSV
    /// with `paid_by`, `split` and `members`; the same file without those columns is the plain one.
    /// Each import goes into a fresh ledger holding the trip; each figure is the median of three,
    /// with the import's peak memory. The targets: a group import within 1.5× the plain one and
    /// 120 MB, a group export within 1.3×.
    static func groupExchangeRows(tripBinary: String, dataDir: String) throws -> [(String, Double, Double?)] {
        let today = CivilDate(iso: "2026-03-10")!
        let names = ["Ana", "Ben", "Carla", "Dan", "Eve", "Finn"]
        let template = dataDir + "/group-exchange-\(schemaTag).sqlite"
        if access(template, F_OK) != 0 {
            let started = wallNow()
            let partial = template + ".partial"
            for suffix in ["", "-wal", "-shm"] { unlink(partial + suffix) }
            let ledger = try Ledger(path: partial, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"))
            var rng = Random(state: seed &+ 27)
            try ledger.inOneTransaction {
                try ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
                _ = try ledger.addMembers(names, trip: "Group")
                for i in 0..<100_000 {
                    let sharers = names.shuffledPrefix(2 + rng.below(5), &rng)
                    let amount = 500 + rng.below(30_000)
                    let payer = names[rng.below(6)]
                    let paidBy = i % 3 == 0 ? "\(payer)=\(amount / 2),\(names[(names.firstIndex(of: payer)! + 1) % 6])=rest" : payer
                    _ = try ledger.addPurchase(
                        PurchaseDraft(
                            amount: String(amount), note: "g\(i)", date: today.adding(days: -rng.below(30))!.description, rate: "0.0061"),
                        split: SplitDraft(paidBy: paidBy, split: sharers.joined(separator: ",")))
                }
            }
            try ledger.checkpoint()
            for suffix in ["-wal", "-shm"] { unlink(partial + suffix) }
            guard rename(partial, template) == 0 else { fatalError("cannot rename \(partial)") }
            print("generated a 100,000-purchase group trip of 6 members in \(formatTime(wallNow() - started))")
        }
        let env = { (db: String) in ["TRIP_DB=\(db)", "TRIP_TODAY=\(today)", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"] }
        let groupCSV = dataDir + "/group-exchange.csv", plainCSV = dataDir + "/plain-exchange.csv"
        run(tripBinary, ["export", "--format", "csv"], env(template), stdout: groupCSV)
        try writePlain(groupCSV, to: plainCSV)

        /// Median of three imports of `csv`, each into a fresh ledger holding the trip; its peak memory.
        func imports(_ csv: String, into target: String) throws -> (ms: Double, peak: String) {
            var times: [Double] = []
            var peak = "?"
            for _ in 0..<3 {
                for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
                do {
                    let l = try Ledger(path: target, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"))
                    try l.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
                }
                let start = now()
                let trace = runCapturingStderr(tripBinary, ["import", csv], env(target) + ["TRIP_TRACE=1"])
                times.append(now() - start)
                if let failed = trace.split(separator: "\n").first(where: { $0.hasPrefix("trip: ") }) { print("import: \(failed)") }
                peak =
                    trace.split(separator: "\n").last { $0.contains("peak memory") }
                    .map { String($0.split(separator: ":").last ?? "").trimmingSpaces } ?? "?"
            }
            return (times.sorted()[1], peak)
        }
        let plainLedger = dataDir + "/plain-exchange.sqlite", groupLedger = dataDir + "/group-exchange-import.sqlite"
        let plain = try imports(plainCSV, into: plainLedger)
        let group = try imports(groupCSV, into: groupLedger)
        // The exports: the group trip's, and the plain ledger's (the same rows, no members), one
        // of each in turn, so that load coming and going on this machine falls on both sides of
        // the ratio alike (timed three and then three, the ratio moved by about ±0.1).
        func export(_ ledger: String) -> Double {
            let start = now()
            run(tripBinary, ["export", "--format", "csv"], env(ledger))
            return now() - start
        }
        // One untimed run of each first: the page cache holds both ledgers.
        _ = export(groupLedger)
        _ = export(plainLedger)
        var groupTimes: [Double] = [], plainTimes: [Double] = []
        for _ in 0..<5 {
            groupTimes.append(export(groupLedger))
            plainTimes.append(export(plainLedger))
        }
        let groupExport = groupTimes.sorted()[2], plainExport = plainTimes.sorted()[2]
        print(
            "group import: \(format(group.ms)), peak \(group.peak); plain: \(format(plain.ms)), peak \(plain.peak) (\(Double(Int(group.ms / plain.ms * 100)) / 100)×)"
        )
        print("group CSV export: \(format(groupExport)); plain: \(format(plainExport)) (\(Double(Int(groupExport / plainExport * 100)) / 100)×)")
        // The memory target (120 MB) is stated beside the time, which is what the table compares.
        let peakMB = Double(group.peak.split(separator: " ").first.flatMap { Int($0) } ?? 0) / 1000
        let memory = peakMB > 0 ? "peak \(Int(peakMB.rounded())) MB, target ≤ 120 MB \(peakMB <= 120 ? "✓" : "✗")" : "peak \(group.peak)"
        return [
            ("trip import, 100,000-row group CSV (median of 3; \(memory))", group.ms, plain.ms * 1.5),
            ("trip import, the same rows without paid_by, split, members", plain.ms, nil),
            ("trip export --format csv, that group trip (median of 5, in turn with the plain one)", groupExport, plainExport * 1.3),
            ("trip export --format csv, the same rows as a plain trip", plainExport, nil),
        ]
    }

    /// `csv` without its last three columns (`paid_by`, `split`, `members`): a plain trip's file.
    static func writePlain(_ csv: String, to path: String) throws {
        guard let input = fopen(csv, "rb"), let output = fopen(path, "wb") else { fatalError("cannot open \(csv)") }
        defer {
            fclose(input)
            fclose(output)
        }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, input) > 0 {
            let record = String(cString: line!)
            // The fields end at commas outside quotes; the file's only quoted field is `members`.
            var commas: [String.Index] = []
            var quoted = false
            for i in record.indices {
                if record[i] == "\"" { quoted.toggle() } else if record[i] == ",", !quoted { commas.append(i) }
            }
            let cut = commas[commas.count - 3]
            fputs(String(record[..<cut]) + "\r\n", output)
        }
        free(line)
    }
}
