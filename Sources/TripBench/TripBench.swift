import Embedded
import FXTestServer
import RateService
import RateSync
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `make bench`: generates a seeded ledger of 1,000,000 purchases across 50 trips (20,000 each),
/// then times whole `trip` processes and prints medians. Targets live here, never in tests.
@main
struct TripBench {
    static let trips = 50
    static let perTrip = 20_000
    static let seed: UInt64 = 20_260_302

    static func main() throws {
        var args = CommandLine.arguments.dropFirst()
        var tripBinary = ".build/release/trip", dataDir = ".build-bench-data"
        var profile = false, onlyRates = false, onlyGroups = false, onlyGroupExchange = false, onlyStatement = false
        // `--only add,list`: only these groups of rows (add, list, report, groups, group-exchange, sharing,
        // rates, exchange, statement, import), to measure one change without the whole run.
        var only: Set<String>?
        while let a = args.popFirst() {
            if a == "--trip", let v = args.popFirst() { tripBinary = v }
            if a == "--data", let v = args.popFirst() { dataDir = v }
            if a == "--startup-profile" { profile = true }
            if a == "--only-rates" { onlyRates = true }
            if a == "--only-groups" { onlyGroups = true }
            // Without the 1,000,000-purchase ledger, which takes minutes to generate.
            if a == "--only-group-exchange" { onlyGroupExchange = true }
            if a == "--only-statement" { onlyStatement = true }
            if a == "--only", let v = args.popFirst() { only = Set(v.split(separator: ",").map(String.init)) }
            if a == "--cpu" { measuresCPU = true }
            if a == "--instructions" { countsInstructions = true }
        }
        func wanted(_ group: String) -> Bool { only?.contains(group) ?? true }
        if profile { try startupProfile(dataDir: dataDir); return }
        mkdir(dataDir, 0o700)
        if countsInstructions { countInstructions(of: tripBinary, dataDir: dataDir) }
        if onlyGroups {
            for (name, ms, _) in try groupRows(tripBinary: tripBinary, dataDir: dataDir) { print("\(name): \(format(ms))") }
            return
        }
        if onlyGroupExchange {
            for (name, ms, _) in try groupExchangeRows(tripBinary: tripBinary, dataDir: dataDir) { print("\(name): \(format(ms))") }
            return
        }
        if onlyStatement {
            for (name, ms, _) in try statementRows(tripBinary: tripBinary, dataDir: dataDir) { print("\(name): \(format(ms))") }
            return
        }
        if onlyRates {
            for (name, ms, _) in try rateRows(tripBinary: tripBinary, dataDir: dataDir) { print("\(name): \(format(ms))") }
            return
        }
        let ledgerPath = dataDir + "/bench-\(schemaTag).sqlite"
        if access(ledgerPath, F_OK) != 0 {
            let started = wallNow()
            // Build under another name and rename when complete, so an interrupted run is never reused.
            let partial = ledgerPath + ".partial"
            for suffix in ["", "-wal", "-shm"] { unlink(partial + suffix) }
            try generate(at: partial)
            for suffix in ["-wal", "-shm"] { unlink(partial + suffix) }
            guard rename(partial, ledgerPath) == 0 else { fatalError("cannot rename \(partial)") }
            print("generated \(trips * perTrip) purchases in \(formatTime(wallNow() - started)) (seed \(seed))")
        }
        let env = ["TRIP_DB=\(ledgerPath)", "TRIP_TODAY=2026-03-10", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"]
        var rows: [(String, Double, Double?)] = []
        rows.append(("trip --version", median(20) { run(tripBinary, ["--version"], env) }, nil))
        if wanted("add") {
            // Into a copy: the purchases it adds stayed in the ledger every later row and run reads
            // (Trip 7 had 20,315 after 15 runs), so two builds' lists and reports compared different trips.
            let copy = dataDir + "/add-target.sqlite"
            for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) }
            for suffix in ["", "-wal"] where access(ledgerPath + suffix, F_OK) == 0 { copyFile(ledgerPath + suffix, copy + suffix) }
            let addEnv = env.map { $0.hasPrefix("TRIP_DB=") ? "TRIP_DB=\(copy)" : $0 }
            rows.append(
                (
                    "trip add (1,000,000-row ledger)",
                    median(20) { run(tripBinary, ["add", "1200", "JPY", "bench", "--trip", "Trip 7", "--preset", "JP"], addEnv) }, 10
                ))
            for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) }
        }
        if wanted("list") { rows.append(contentsOf: listRows(tripBinary: tripBinary, ledgerPath: ledgerPath, env: env)) }
        if wanted("report") {
            rows.append(("trip report (20,000-purchase trip)", median(20) { run(tripBinary, ["report", "--trip", "Trip 7"], env) }, 50))
            rows.append(("trip report --format json", median(20) { run(tripBinary, ["report", "--trip", "Trip 7", "--format", "json"], env) }, 50))
            rows.append(("trip report --all (50 trips, 1,000,000 purchases)", median(5) { run(tripBinary, ["report", "--all"], env) }, 1000))
        }
        if wanted("groups") { rows.append(contentsOf: try groupRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("group-exchange") { rows.append(contentsOf: try groupExchangeRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("sharing") { rows.append(contentsOf: try sharingRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("rates") { rows.append(contentsOf: try rateRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("exchange") { rows.append(contentsOf: try exchangeRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("statement") { rows.append(contentsOf: try statementRows(tripBinary: tripBinary, dataDir: dataDir)) }
        if wanted("import") { rows.append(contentsOf: try importRows(tripBinary: tripBinary, dataDir: dataDir, ledgerPath: ledgerPath)) }
        print("")
        print(
            countsInstructions
                ? "| operation | instructions (millions) | target (wall time) |"
                : measuresCPU ? "| operation | median CPU time | target (wall time) |" : "| operation | median | target |")
        print("|---|---:|---:|")
        for (name, ms, target) in rows {
            let t = countsInstructions ? "-" : target.map { ms <= $0 ? "≤ \(Int($0)) ms ✓" : "≤ \(Int($0)) ms ✗" } ?? "-"
            print("| \(name) | \(format(ms)) | \(t) |")
        }
        print(
            countsInstructions
                ? "\neach figure is the instructions of one whole `trip` process under callgrind"
                : "\nmachine: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores; each figure is the median of whole-process runs (spawn to exit)")
    }

    /// In-process cost of what every command does before its query, first call (cold) each.
    static func startupProfile(dataDir: String) throws {
        var t = now()
        func lap(_ label: String) { let n = now(); print("\(label): \(format(n - t))"); t = n }
        _ = CurrencyTable.shared.lookup("JPY")
        lap("currency table")
        let settings = try Settings.defaults()
        lap("settings + presets + fallback")
        let ledger = try Ledger(
            path: dataDir + "/bench-\(schemaTag).sqlite", settings: settings,
            clock: Clock(today: CivilDate(iso: "2026-03-10")!, now: "x"))
        lap("open ledger")
        _ = try ledger.trips()
        lap("list trips")
        _ = try ledger.report(trip: "Trip 7")
        lap("report Trip 7")
        _ = try ledger.report(trip: "Trip 7")
        lap("report Trip 7 again")
    }

    /// FNV-1a of every embedded migration, so generated ledgers are rebuilt when the schema changes.
    static var schemaTag: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for m in Embedded.migrations { for b in m.sql { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
        // The generator's own version: bump when what it writes changes (3: ledgers made with 8 KiB pages).
        for b in "generator-3".utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    // MARK: rates

    /// A synthetic ECB full history (`days` publication days × 30 currencies, compact layout), newest first.
    static func syntheticHistory(days: Int, endingOn end: CivilDate) -> [UInt8] {
        let codes = [
            "USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK", "NOK", "TRY", "AUD",
            "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
        ]
        var rng = Random(state: seed)
        var out =
            #"<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender><Cube>"#
        out += "\n"
        var day = end, written = 0
        while written < days {
            if day.weekday < 5 {
                out += "<Cube time=\"\(day)\">"
                for (i, c) in codes.enumerated() {
                    let whole = 1 + (i * 37) % 200, frac = 1000 + rng.below(9000)
                    out += "<Cube currency=\"\(c)\" rate=\"\(whole).\(frac)\"/>"
                }
                out += "</Cube>\n"
                written += 1
            }
            day = day.adding(days: -1)!
        }
        out += "</Cube></gesmes:Envelope>\n"
        return Array(out.utf8)
    }

    /// Full-history sync from loopback, re-rating 100,000 provisional purchases, and libcurl's absence.
    static func rateRows(tripBinary: String, dataDir: String) throws -> [(String, Double, Double?)] {
        let today = CivilDate(iso: "2026-03-10")!
        let history = syntheticHistory(days: 7000, endingOn: today)
        print("synthetic ECB history: 7,000 days × 30 currencies, \(history.count / 1024) KiB")
        let server = try FXTestServer()
        server.route("/eurofxref-hist.xml", .file(history, contentType: "text/xml"))
        let config = dataDir + "/rates.toml"
        let f = fopen(config, "w")
        fputs("[rates]\nchain = \"ecb\"\necb_history = \"full\"\n", f)
        fclose(f)
        let env = [
            "TRIP_TODAY=\(today)", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent", "TRIP_CONFIG=\(config)",
            "TRIP_RATES_URL=\(server.baseURL)", "no_proxy=*",
        ]
        // A fresh ledger per run: one provisional purchase and no rates yet (fetch, validate, store
        // 210,000 rows; a ledger with nothing to sync makes no request, and none is created by sync) …
        let oneProvisional = dataDir + "/sync-one-\(schemaTag).sqlite"
        if access(oneProvisional, F_OK) != 0 {
            let ledger = try Ledger(
                path: oneProvisional, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"),
                create: true)
            try ledger.createTrip(NewTrip(name: "Sync", localCurrency: "JPY", homeCurrency: "GBP"))
            _ = try ledger.addPurchase(PurchaseDraft(amount: "1200", date: today.description))
        }
        let syncEmpty = median(5) {
            let path = dataDir + "/sync-empty.sqlite"
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            copyFile(oneProvisional, path)
            run(tripBinary, ["rates", "sync"], env + ["TRIP_DB=\(path)"])
        }
        // … and one with 100,000 provisional purchases over the last 400 days, re-rated in one transaction.
        let template = try longTrip(dataDir: dataDir)
        var rerateSamples: [Double] = []
        for i in 0..<3 {
            let path = dataDir + "/rerate-\(i).sqlite"
            // A -wal left by an earlier run would replay its already re-rated pages onto the copy.
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            copyFile(template, path)
            let start = now()
            run(tripBinary, ["rates", "sync"], env + ["TRIP_DB=\(path)"])
            rerateSamples.append(now() - start)
        }
        rerateSamples.sort()
        let ledgerEnv = ["TRIP_DB=\(dataDir)/rerate-0.sqlite", "TRIP_TODAY=\(today)", "HOME=/nonexistent", "LD_DEBUG=libs"]
        let loadsCurl = runCapturingStderr(tripBinary, ["add", "100", "--trip", "Long trip"], ledgerEnv).contains("libcurl")
        print("libcurl loaded by `trip add`: \(loadsCurl ? "YES" : "no") (LD_DEBUG=libs)")
        return [
            ("rates sync, full ECB history, one provisional purchase", syncEmpty, 2000),
            ("rates sync + re-rate 100,000 provisional", rerateSamples[1], nil),
        ]
    }

    /// A ledger of one trip, "Long trip", with 100,000 provisional purchases over the 400 days before
    /// 2026-03-10, made once per schema: the rates rows re-rate copies of it, the exchange rows
    /// export and list it (so `--only exchange` measures it too, not an error about a missing file).
    static func longTrip(dataDir: String) throws -> String {
        let template = dataDir + "/rerate-template-\(schemaTag).sqlite"
        guard access(template, F_OK) != 0 else { return template }
        let today = CivilDate(iso: "2026-03-10")!
        let ledger = try Ledger(path: template, settings: try Settings.defaults(), clock: Clock(today: today, now: "x"))
        var rng = Random(state: seed)
        try ledger.inOneTransaction {
            try ledger.createTrip(NewTrip(name: "Long trip", localCurrency: "JPY", homeCurrency: "GBP"))
            for _ in 0..<100_000 {
                _ = try ledger.addPurchase(
                    PurchaseDraft(amount: String(100 + rng.below(20_000)), date: today.adding(days: -rng.below(400))!.description))
            }
        }
        return template
    }

    /// Export and list of a 100,000-purchase trip (time and peak memory), and hledger and ledger
    /// reading the journal in the same run.
    static func exchangeRows(tripBinary: String, dataDir: String) throws -> [(String, Double, Double?)] {
        let template = try longTrip(dataDir: dataDir)
        let journal = dataDir + "/long-trip.journal"
        let env = ["TRIP_DB=\(template)", "TRIP_TODAY=2026-03-10", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"]
        var rows: [(String, Double, Double?)] = []
        let export = median(3) { run(tripBinary, ["export", "--format", "ledger", "--trip", "Long trip"], env, stdout: journal) }
        rows.append(("trip export --format ledger (100,000 purchases)", export, nil))
        print(
            "export peak memory: \(peakMemory(tripBinary, ["export", "--format", "ledger", "--trip", "Long trip"], env)) (100,000 purchases; streamed)"
        )
        for format in ["text", "json"] {
            let args = ["list", "--trip", "Long trip", "--format", format]
            rows.append(("trip list --format \(format) (100,000 purchases)", median(3) { run(tripBinary, args, env) }, nil))
            print("list --format \(format) peak memory: \(peakMemory(tripBinary, args, env)) (100,000 purchases; streamed)")
        }
        var toolTimes: [String: Double] = [:]
        for (tool, args) in [
            ("/usr/bin/hledger", ["-f", journal, "bal", "expenses", "-B"]),
            ("/usr/bin/ledger", ["-f", journal, "bal", "^Expenses", "-B"]),
        ] where access(tool, X_OK) == 0 {
            let start = now()
            run(tool, args, ["HOME=/nonexistent", "LANG=C.UTF-8"])
            toolTimes[tool] = now() - start
            rows.append(("\(tool.split(separator: "/").last!) bal -B on that journal (1 run)", toolTimes[tool]!, nil))
        }
        if let h = toolTimes["/usr/bin/hledger"], let l = toolTimes["/usr/bin/ledger"] {
            print("hledger / ledger time on the same journal: \(Double(Int(h / l * 100)) / 100)×")
        }
        return rows
    }

    /// `trip list` of the 20,000-purchase trip in each format, against the sqlite3 shell printing
    /// the same rows as CSV: the target is 1.5× the shell's time. Then `--limit 5 --reverse`.
    static func listRows(tripBinary: String, ledgerPath: String, env: [String]) -> [(String, Double, Double?)] {
        var rows: [(String, Double, Double?)] = []
        var target: Double?
        let shells: [String] = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"]
        if let sqlite3 = shells.first(where: { path in access(path, X_OK) == 0 }) {
            let sql = "SELECT p.* FROM purchases p JOIN trips t ON t.id = p.trip_id WHERE t.name = 'Trip 7' ORDER BY p.date, p.id"
            let shell = median(10) { run(sqlite3, ["-csv", "-readonly", ledgerPath, sql], []) }
            rows.append(("sqlite3 -csv, the same 20,000 rows", shell, nil))
            target = shell * 1.5
        } else {
            print("sqlite3 not installed (apt-get install sqlite3): list has no target")
        }
        rows.append(("trip list --trip (20,000 rows)", median(10) { run(tripBinary, ["list", "--trip", "Trip 7"], env) }, target))
        rows.append(
            ("trip list --trip --format json", median(10) { run(tripBinary, ["list", "--trip", "Trip 7", "--format", "json"], env) }, target))
        rows.append(
            (
                "trip list --trip --limit 5 --reverse",
                median(10) { run(tripBinary, ["list", "--trip", "Trip 7", "--limit", "5", "--reverse"], env) }, 50
            ))
        return rows
    }

    /// `trip export --format csv --all` of the 1,000,000-purchase ledger, then `trip import` of that
    /// file into fresh ledgers holding the same 50 trips (export once, import the median of three).
    static func importRows(tripBinary: String, dataDir: String, ledgerPath: String) throws -> [(String, Double, Double?)] {
        let csv = dataDir + "/all-\(schemaTag).csv"
        let env = ["TRIP_DB=\(ledgerPath)", "TRIP_TODAY=2026-03-10", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent"]
        var start = now()
        run(tripBinary, ["export", "--format", "csv", "--all"], env, stdout: csv)
        let export = now() - start
        print("export --all peak memory: \(peakMemory(tripBinary, ["export", "--format", "csv", "--all"], env)) (1,000,000 purchases; streamed)")
        let target = dataDir + "/import-target.sqlite"
        // Three imports, each into a fresh ledger holding the 50 trips: the median, as for every
        // other row (one run swung by ±10 % on this machine, mostly in the commit's disk writes).
        var times: [Double] = []
        var trace = ""
        for _ in 0..<3 {
            for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
            do {
                let ledger = try Ledger(path: target, settings: try Settings.defaults(), clock: Clock(today: CivilDate(iso: "2026-03-10")!, now: "x"))
                let locals = ["JPY", "EUR", "GBP", "SGD", "KRW", "THB", "USD", "TWD", "CHF", "MXN"]
                for t in 1...trips {
                    try ledger.createTrip(NewTrip(name: "Trip \(t)", localCurrency: locals[(t - 1) % locals.count], homeCurrency: "USD"))
                }
            }
            start = now()
            trace = runCapturingStderr(
                tripBinary, ["import", csv], ["TRIP_DB=\(target)", "TRIP_TODAY=2026-03-10", "HOME=/nonexistent", "TRIP_TRACE=1"])
            times.append(now() - start)
            if let failed = trace.split(separator: "\n").first(where: { $0.hasPrefix("trip: ") }) {
                print("import: \(failed)")
                break
            }
        }
        let importTime = times.sorted()[times.count / 2]
        print(
            "import runs: \(times.map { "\(Int($0)) ms" }.joined(separator: ", ")); peak memory: \(trace.split(separator: "\n").last { $0.contains("peak memory") }.map { String($0.split(separator: ":").last ?? "").trimmingSpaces } ?? "?")"
        )
        return [
            ("trip export --format csv --all (1,000,000 purchases)", export, nil),
            ("trip import of those 1,000,000 rows (median of 3)", importTime, 10_000),
        ]
    }

    /// The child's own peak resident memory, as `trip` reports it with `TRIP_TRACE=1`
    /// (`wait4` would count the bench's memory too: `posix_spawn` shares it until exec).
    static func peakMemory(_ binary: String, _ args: [String], _ env: [String]) -> String {
        let trace = runCapturingStderr(binary, args, env + ["TRIP_TRACE=1"])
        return trace.split(separator: "\n").last { $0.contains("peak memory") }
            .map { String($0.split(separator: ":").last ?? "").trimmingSpaces } ?? "?"
    }

    static func copyFile(_ from: String, _ to: String) {
        guard let input = fopen(from, "rb"), let output = fopen(to, "wb") else { fatalError("cannot copy \(from)") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = fread(&buffer, 1, buffer.count, input)
            if n <= 0 { break }
            fwrite(buffer, 1, n, output)
        }
        fclose(input)
        fclose(output)
    }

    static func runCapturingStderr(_ binary: String, _ args: [String], _ env: [String]) -> String {
        let path = "/tmp/trip-bench-stderr-\(getpid())"
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([binary] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        posix_spawn(&pid, binary, &actions, nil, argv, envp)
        posix_spawn_file_actions_destroy(&actions)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        defer { unlink(path) }
        return TextFile.read(path) ?? ""
    }

    // MARK: generation

    /// SplitMix64: small, seeded, reproducible.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func generate(at path: String) throws {
        let settings = try Settings.defaults()
        let ledger = try Ledger(path: path, settings: settings, clock: Clock(today: CivilDate(iso: "2026-03-10")!, now: "2026-03-10T00:00:00Z"))
        var rng = Random(state: seed)
        let locals = ["JPY", "EUR", "GBP", "SGD", "KRW", "THB", "USD", "TWD", "CHF", "MXN"]
        let categories = ["food", "transport", "lodging", "shopping", "museums", "gifts", nil]
        let usd = try CurrencyTable.shared.currency(for: "USD")
        try ledger.inOneTransaction {
            for t in 1...trips {
                let local = try CurrencyTable.shared.currency(for: locals[(t - 1) % locals.count])
                let tripID = try ledger.createTrip(
                    NewTrip(
                        name: "Trip \(t)", localCurrency: local.code, homeCurrency: "USD",
                        start: "2025-01-01", end: "2026-03-10")
                ).id
                let quote = settings.fallback.rate(from: local.code, to: "USD").map {
                    RateQuote(rate: $0.rate, date: nil, source: .fallback, provisional: true)
                }
                for i in 0..<perTrip {
                    let day = CivilDate(iso: "2025-06-01")!.adding(days: rng.below(240))!
                    let major = 1 + rng.below(local.minorUnits == 0 ? 30_000 : 300)
                    let price = Int64(major) * Int64(pow10(local.minorUnits)) + Int64(rng.below(max(1, pow10(local.minorUnits))))
                    let included = rng.below(2) == 0
                    let tip = rng.below(5) == 0
                    let inputs = AdjustmentInputs(
                        tax: .percent(try Rational(1, 10), text: "10%"), taxIncluded: included,
                        tip: tip ? .percent(try Rational(3, 20), text: "15%") : nil)
                    let b = try Breakdown.compute(price: price, currency: local, inputs: inputs)
                    let c = try Conversion.make(breakdown: b, from: local, to: usd, quote: quote, rounding: .halfUp)
                    try ledger.insertGenerated(
                        PurchaseValues(
                            tripID: tripID, date: day, note: "purchase \(i)", category: categories[rng.below(categories.count)],
                            paidWith: rng.below(2) == 0 ? "card" : "cash", currency: local,
                            expression: Money(minorUnits: price, currency: local).plainText, inputs: inputs, breakdown: b,
                            conversion: c))
                }
            }
        }
        try ledger.checkpoint(analyze: true)
    }

    static func pow10(_ n: Int) -> Int { n == 0 ? 1 : 10 * pow10(n - 1) }

    // MARK: timing

    /// `--cpu`: every time is CPU time, user and system, of the bench and of the commands it ran
    /// and waited for, rather than wall time. Two binaries compared while other work runs on the
    /// machine differ less by the load than in wall time (docs/benchmarks.md). It leaves out what
    /// other processes do for a command: PostgreSQL's part of a sync, the disk's. The targets stay
    /// wall-time targets, so a row's mark means nothing then.
    nonisolated(unsafe) static var measuresCPU = false

    /// `--instructions`: every figure is the instructions `trip` executed, in millions, counted by
    /// valgrind's callgrind (one run a row: the count is the same from run to run, where this
    /// machine's CPU time drifts by more than a change under test). The other tools' rows (sqlite3,
    /// hledger, ledger) and the import, which `trip` runs outside `spawn`, are not counted.
    nonisolated(unsafe) static var countsInstructions = false
    /// Millions of instructions counted so far, the `trip` counted, and the copy valgrind runs.
    nonisolated(unsafe) static var instructionsCounted = 0.0
    nonisolated(unsafe) static var countedBinary = "", valgrindCopy = ""

    /// Makes the copy of `tripBinary` that valgrind runs: without its debug information, which
    /// valgrind 3.19 gives up on in a Swift 6 release binary ("Possibly corrupted debuginfo file").
    static func countInstructions(of tripBinary: String, dataDir: String) {
        guard access("/usr/bin/valgrind", X_OK) == 0 else {
            fatalError("--instructions needs valgrind (apt-get install valgrind; `make bench` installs it)")
        }
        countedBinary = tripBinary
        valgrindCopy = dataDir + "/trip-for-valgrind"
        guard spawn("/usr/bin/objcopy", ["--strip-debug", tripBinary, valgrindCopy], []).status == 0 else {
            fatalError("objcopy --strip-debug \(tripBinary) failed")
        }
    }

    /// On the scale the figures read: milliseconds of monotonic wall time, of CPU time (`--cpu`), or
    /// millions of instructions (`--instructions`).
    static func now() -> Double {
        if countsInstructions { return instructionsCounted }
        if measuresCPU { return cpuMilliseconds() }
        return wallNow()
    }

    /// Milliseconds of monotonic wall time, whatever the figures read (how long a ledger took to make).
    static func wallNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }

    /// User and system CPU time of this process and of its children it waited for, in milliseconds.
    static func cpuMilliseconds() -> Double {
        var own = rusage(), children = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &own)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        #else
        getrusage(RUSAGE_SELF, &own)
        getrusage(RUSAGE_CHILDREN, &children)
        #endif
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(own.ru_utime) + ms(own.ru_stime) + ms(children.ru_utime) + ms(children.ru_stime)
    }

    static func format(_ ms: Double) -> String {
        if countsInstructions { return ms == 0 ? "not counted" : "\(Double(Int(ms * 10)) / 10) M" }
        return formatTime(ms)
    }

    static func formatTime(_ ms: Double) -> String {
        ms >= 1000 ? "\(Double(Int(ms / 10)) / 100) s" : "\(Double(Int(ms * 10)) / 10) ms"
    }

    /// Median wall time of `n` runs in milliseconds, after one warm-up run; with `--instructions`,
    /// the instructions of one run.
    static func median(_ n: Int, _ body: () -> Void) -> Double {
        if countsInstructions {
            let start = now()
            body()
            return now() - start
        }
        body()
        var samples: [Double] = []
        for _ in 0..<n {
            let start = now()
            body()
            samples.append(now() - start)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Spawns `binary args…` with `env`, stdout to `stdout` (default /dev/null), waits, and returns
    /// the child's peak resident set in KiB.
    @discardableResult
    static func run(_ binary: String, _ args: [String], _ env: [String], stdout: String = "/dev/null") -> Int {
        spawn(binary, args, env, stdout: stdout).peakKiB
    }

    /// Spawns `binary args…` and waits: its exit status and peak resident set in KiB.
    static func spawn(_ binary: String, _ args: [String], _ env: [String], stdout: String = "/dev/null") -> (status: Int32, peakKiB: Int) {
        if countsInstructions && binary == countedBinary {
            let log = "/tmp/trip-bench-callgrind-\(getpid())"
            defer { unlink(log) }
            let tool = ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=\(log)", valgrindCopy]
            let result = spawn("/usr/bin/valgrind", tool + args, env, stdout: stdout)
            // callgrind's summary: "==PID== Collected : 802872616".
            let collected = (TextFile.read(log) ?? "").split(separator: "\n").first { $0.contains("Collected :") }?
                .split(separator: " ").last.flatMap { Double($0) }
            guard let collected else { fatalError("valgrind counted nothing for \(binary) \(args)") }
            instructionsCounted += collected / 1_000_000
            return result
        }
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        let rc = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        guard rc == 0 else { fatalError("cannot run \(binary): \(rc)") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return ((status >> 8) & 0xFF, usage.ru_maxrss)
    }
}
