import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripBench {
    static let statementRowCount = 2_000

    /// Issue 37: a 2,000-row Wise statement (USD card payments from a GBP account) imported into an
    /// empty trip (nothing to match: the import as before reconciling), and reconciled against a
    /// trip holding the 2,000 purchases it charges (each row matches one, a day earlier).
    /// `TripBench --only-statement` runs these rows alone, against any `--trip` binary.
    static func statementRows(tripBinary: String, dataDir: String) throws -> [(String, Double, Double?)] {
        let today = CivilDate(iso: "2026-03-10")!
        let first = CivilDate(iso: "2026-01-01")!
        let statement = dataDir + "/statement-\(statementRowCount).csv"
        var csv = """
            TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance,Exchange From,Exchange To,Exchange Rate,Payer Name,Payee Name,Payee Account Number,Merchant,Card Last Four Digits,Card Holder Full Name,Attachment,Note,Total fees,Exchange To Amount

            """
        // Amounts all differ (USD 10.00, 10.01, …), so every row has exactly one purchase.
        func usd(_ i: Int) -> Int { 1000 + i }
        func day(_ i: Int) -> CivilDate { first.adding(days: i % 60)! }
        for i in 0..<statementRowCount {
            let d = day(i).adding(days: 1)!
            let date = "\(d.day < 10 ? "0" : "")\(d.day)-\(d.month < 10 ? "0" : "")\(d.month)-\(d.year)"
            let gbp = usd(i) * 3 / 4
            csv +=
                "CARD-\(i),\(date),-\(gbp / 100).\(pad(gbp % 100)),GBP,Card transaction of USD issued by Shop \(i),,0.00,GBP,USD,0.75,,,,Shop \(i),1234,A Traveller,,,0.00,\(usd(i) / 100).\(pad(usd(i) % 100))\n"
        }
        guard let out = fopen(statement, "w") else { fatalError("cannot write \(statement)") }
        fputs(csv, out)
        fclose(out)

        let logged = dataDir + "/reconcile-\(schemaTag).sqlite"
        if access(logged, F_OK) != 0 {
            let partial = logged + ".partial"
            for suffix in ["", "-wal", "-shm"] { unlink(partial + suffix) }
            let ledger = try Ledger(path: partial, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"))
            try ledger.inOneTransaction {
                try ledger.createTrip(NewTrip(name: "Bench", localCurrency: "USD", homeCurrency: "GBP"))
                for i in 0..<statementRowCount {
                    _ = try ledger.addPurchase(
                        PurchaseDraft(
                            amount: "\(usd(i) / 100).\(pad(usd(i) % 100))", currency: "USD", note: "logged \(i)", date: day(i).description))
                }
            }
            try ledger.checkpoint()
            for suffix in ["-wal", "-shm"] { unlink(partial + suffix) }
            guard rename(partial, logged) == 0 else { fatalError("cannot rename \(partial)") }
        }
        let work = dataDir + "/reconcile-work.sqlite"
        func env(_ db: String) -> [String] { ["TRIP_DB=\(db)", "TRIP_TODAY=\(today)", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"] }
        func timed(_ prepare: () -> Void) -> Double {
            var samples: [Double] = []
            for _ in 0..<5 {
                for suffix in ["", "-wal", "-shm"] { unlink(work + suffix) }
                prepare()
                let start = now()
                // `--trip`: the logged ledger was made by the library, which sets no current trip. `spawn`,
                // not `run`: `run` answers the peak memory, which is never 0.
                guard spawn(tripBinary, ["import", statement, "--trip", "Bench"], env(work)).status == 0 else {
                    fatalError("trip import \(statement) failed")
                }
                samples.append(now() - start)
            }
            return samples.sorted()[samples.count / 2]
        }
        let empty = timed {
            _ = run(tripBinary, ["new", "Bench", "--currency", "USD", "--home", "GBP"], env(work))
        }
        let reconcile = timed { copyFile(logged, work) }
        return [
            ("trip import of a 2,000-row statement, nothing to match (median of 5)", empty, nil),
            ("trip import reconciling 2,000 rows with a 2,000-purchase trip (median of 5)", reconcile, 500),
        ]
    }

    static func pad(_ cents: Int) -> String { cents < 10 ? "0\(cents)" : "\(cents)" }
}
