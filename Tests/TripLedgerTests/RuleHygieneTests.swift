import Foundation
import Testing

/// Rules that once had several copies now have one home each; this suite reads every Swift file
/// under `Sources/` and fails on a second copy, in the way `SQLHygieneTests` guards SQL.
///
/// - which characters are unsafe to echo: `UnsafeText` (was in `quoted`, `TextFormat`, both JSON
///   writers' neighbours, `JournalText`, `FetchError`, `ProviderMessage` and `TextField`);
/// - a code this build does not know has 2 minor units: `Currency.stored`;
/// - a derived rate is written exactly to 12 decimals, else to 12 significant digits:
///   `Rational.derivedRateText`;
/// - values parsed from cell texts are memoised by `ByteMemo` (was also `TextCache`);
/// - a quotient is rounded by `Rational` (was also `roundedQuotient` in the import);
/// - which spec a field gets and the charged amount's rate: `PurchaseBuilder` (was also in
///   `Ledger.prepareRow`, beside the storage);
/// - which version of a travelling row wins: `Version` (was in `Pull.swift` and twice in
///   `ChangeLog.swift`);
/// - which write of a row wins, an edit, a removal, a restore or a close, and whether two are a
///   conflict: `Version.decide` (was also in SQL in `ChangeLog` by `ORDER BY hlc`, by clock alone
///   in `ChangeLog` and `Push`, in three branches of `Pull` and a `switch` in `Conflicts`);
/// - the clock's tick: the view `sync_next_hlc` of `m0024_one_clock_tick.sql` (was in thirteen
///   trigger bodies and `SyncStore.tick`); checked in the migrations too (`theClockTicksInOnePlace`).
@Suite("One home per rule")
struct RuleHygieneTests {
    struct Rule: Sendable {
        let name: String
        /// The one file, relative to `Sources/`, allowed to spell the rule out.
        let home: String
        let patterns: [String]
    }

    static let rules = [
        Rule(
            name: "unsafe characters (use UnsafeText)", home: "TripCore/Text/UnsafeText.swift",
            patterns: [
                #"0x9F"#, #"(==|!=)\s*0x7F\b"#, #"0x7F\s*\.\.\."#, #"generalCategory\s*==\s*\.format"#,
                #"==\s*\.control\b"#, #"\.value\s*(<|>=)\s*0x20\b"#,
            ]),
        Rule(
            name: "unknown currency's minor units (use Currency.stored)", home: "TripCore/Currency/Currency.swift",
            patterns: [#"minorUnits:\s*2\s*,\s*name:\s*[^"\s]"#]),
        Rule(
            name: "derived rate text (use Rational.derivedRateText)", home: "TripCore/Money/Rational.swift",
            patterns: [#"significantDecimalText\("#, #"exactDecimalText\(maxFractionDigits:\s*12\b"#]),
        Rule(
            name: "cell-text memo (use ByteMemo)", home: "TripCore/Text/ByteMemo.swift",
            patterns: [#"\b(struct|class)\s+\w*(Cache|Memo)\s*<"#]),
        Rule(
            name: "rounding a quotient (use Rational.rounded or timesRounded)", home: "TripCore/Money/Rational.swift",
            patterns: [#"quotientAndRemainder\(dividingBy:"#]),
        Rule(
            name: "which spec a field gets, the charged amount's rate (use PurchaseBuilder)",
            home: "TripCore/Purchase/PurchaseBuilder.swift",
            patterns: [#"\bexplicit\.contains\("#, #"source:\s*\.charged\b"#]),
        Rule(
            name: "which version of a travelling row wins (use Version)", home: "Storage/SyncWire/Version.swift",
            patterns: [#"\bhlc\s*>\s*[\w.]*(hlc|HLC)\b\s*\|\|"#, #"\.hlc\s*>\s*hlc\s*\{"#]),
        Rule(
            name: "which write of a row wins, a removal against a restore, a conflict (use Version.decide)",
            home: "Storage/SyncWire/Version.swift",
            patterns: [
                // The server's order standing in for the rule.
                #"ORDER BY\s+(\w+,\s*)?hlc\b"#,
                // A row's clocks compared by hand: a change's against the row's removal or restore.
                #"\b\w+\.hlc\s*(>|<|>=|<=)\s*[\w?.]*\.(hlc|restored|deleted)\b"#,
                #"deleted(HLC|\[[^\]]*\])?(\s*\?\?\s*0\))?\s*(>|<|>=|<=)\s*\(?[\w?.]*restored"#,
                // Which of a removal and an edit wins, by cases.
                #"case\s*\(\s*(true|false)\s*,\s*(true|false)\s*\)\s*:\s*$"#,
            ]),
        tick,
    ]

    /// The clock's tick: its one home is a migration, so it is looked for in `Migrations/` too.
    static let tick = Rule(
        name: "the clock's tick (use the view sync_next_hlc)", home: "Migrations/m0024_one_clock_tick.sql",
        patterns: [#"julianday\('now'\)[^\n]*65536"#, #"max\(\s*hlc\s*\+\s*1\b"#])

    /// `file:line: rule` for each line of `source` that spells out a rule outside its home.
    static func findings(in source: String, file: String) -> [String] {
        var found: [String] = []
        for rule in rules where file != rule.home {
            let regexes = rule.patterns.map { try! NSRegularExpression(pattern: $0) }
            for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                // Documentation may name the numbers; only code is a copy.
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("//") || trimmed.hasPrefix("--") { continue }
                let range = NSRange(text.startIndex..., in: text)
                if regexes.contains(where: { $0.firstMatch(in: text, range: range) != nil }) {
                    found.append("\(file):\(number + 1): \(rule.name): \(text.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func eachRuleIsWrittenOnce() throws {
        let sources = SQLHygieneTests.sources
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 50, "found \(files.count) Swift files under \(sources.path)")
        for rule in Self.rules where !rule.home.hasPrefix("Migrations/") {
            #expect(files.contains(rule.home), "\(rule.home) is gone: move the rule's home here too")
        }
        var findings: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            findings += Self.findings(in: text, file: file)
        }
        #expect(findings.isEmpty, "a second copy of a rule:\n\(findings.joined(separator: "\n"))")
    }

    /// Every migration, each trigger a later one creates included, ticks the clock by the one
    /// definition: no SQL file but its home spells the formula out.
    @Test func theClockTicksInOnePlace() throws {
        let migrations = SQLHygieneTests.sources.deletingLastPathComponent().appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: migrations.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.contains("m0024_one_clock_tick.sql"), "the tick's home is gone from \(migrations.path)")
        var findings: [String] = []
        for file in files {
            let text = try String(contentsOf: migrations.appendingPathComponent(file), encoding: .utf8)
            findings += Self.findings(in: text, file: "Migrations/" + file).filter { $0.contains(Self.tick.name) }
        }
        #expect(findings.isEmpty, "the clock's tick spelled out again:\n\(findings.joined(separator: "\n"))")
        let home = try String(contentsOf: migrations.appendingPathComponent("m0024_one_clock_tick.sql"), encoding: .utf8)
        #expect(Self.findings(in: home, file: "Migrations/elsewhere.sql").count == 1, "the checker no longer finds the tick in its home")
    }

    /// The copies this suite replaced, as they were written: each must be caught, or the test
    /// above proves nothing.
    @Test(arguments: [
        "if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)",
        "|| scalar.properties.generalCategory == .format && scalar.value != 0x200D {",
        "case 0x00...0x1F, 0x7F, 0x80...0x9F:",
        "let isSpace = scalar.properties.isWhitespace || category == .control",
        "text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }",
        "!c.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })",
        "CurrencyTable.shared.lookup(code) ?? Currency(code: code, minorUnits: 2, name: code)",
        "homeCurrency = CurrencyTable.shared.lookup(s.text(3)) ?? Currency(code: s.text(3), minorUnits: 2, name: s.text(3))",
        "return inv.exactDecimalText(maxFractionDigits: 12) ?? inv.significantDecimalText(12)",
        "struct TextCache<Value> {",
        "let (q, r) = n.quotientAndRemainder(dividingBy: d)  // q truncated toward zero, r has n's sign",
        "if let old, explicit.contains(.preset) || (old.currency == currency && old.tripID == trip.id) { return old.preset }",
        "let q = RateQuote(rate: effective, date: date, source: .charged, provisional: false)",
        "let incomingWins = c.hlc > localHLC || (c.hlc == localHLC && c.device > localDevice)",
        "if let mine = changes.last(where: { $0.kind == \"trip\" }), mine.hlc > hlc || (mine.hlc == hlc && device > closer) {",
        "if let known = latest[gid], known.hlc > hlc { continue }",
        // The sync decision as it was written in six places (issue 35).
        "FROM trip_ledger.read_log($1, 0, NULL, ARRAY['trip']) WHERE payload IS NOT NULL ORDER BY hlc DESC, device DESC LIMIT 1",
        "ORDER BY gid, hlc, device",
        "guard alive, c.hlc > state.restored else {",
        "if !alive, c.hlc > state.deleted, table == .purchases || table == .members {",
        "let op = payload == nil ? \"delete\" : w.deletedHLC > w.restoredHLC ? \"restore\" : \"put\"",
        "} else if (version?.deleted ?? 0) > (version?.restored ?? 0) {",
        "(deleted[v.gid] ?? 0) > (restored[v.gid] ?? 0)",
        "case (true, false):",
        "try db.run(\"UPDATE sync_state SET hlc = max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536)\")",
        "    UPDATE sync_state SET hlc = max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536);",
    ])
    func theCheckerCatchesTheOldCopies(line: String) {
        #expect(Self.findings(in: "import TripCore\n" + line + "\n", file: "TripLedger/Somewhere.swift").count == 1)
    }

    /// What stays allowed: the rule's own home, calls to it, comments, and unrelated numbers.
    @Test(arguments: [
        ("if UnsafeText.isUnsafe(scalar) || scalar.value == 0x2028 {", "TripCore/Text/JSONValue.swift"),
        ("if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {", "TripCore/Text/JSONValue.swift"),
        ("/// C1 controls (U+0080–U+009F) such as 0x9F are escaped", "TripLedger/Rendering/TextFormat.swift"),
        ("return (0x7F...0x9F).contains(scalar.value)", "TripCore/Text/UnsafeText.swift"),
        ("homeCurrency = .stored(s.text(3))", "TripLedger/Ledger/Trip.swift"),
        ("public var home: Currency = Currency(code: \"USD\", minorUnits: 2, name: \"US Dollar\")", "TripModel/TripReport.swift"),
        ("text = cross.derivedRateText", "TripLedger/Rates/RateResolver.swift"),
        ("struct DateMemo {", "Exchange/BulkImport/ExportRowFastPath.swift"),
        ("func convert(_ v: Int64) -> Int64? { v == 0 ? 0 : factor.timesRounded(v, rounding) }", "Exchange/Exchange/ImportRow.swift"),
        ("if source == .charged && chargedText.isEmpty {", "Exchange/Exchange/ImportRow.swift"),
        ("guard alive, Version.decide(held: restore, incoming: incoming).takesEffect else {", "SyncRules/Pull.swift"),
        ("a.hlc != b.hlc ? a.hlc < b.hlc : a.device < b.device", "Storage/SyncWire/Version.swift"),
        ("guard c.hlc >= 0, c.hlc >> 16 <= bound, c.baseHLC >= 0 else {", "Storage/SyncWire/PulledChangeCheck.swift"),
        ("UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);", "Storage/Stores/SyncTables/SyncTriggers.swift"),
        (
            "SELECT max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536) AS hlc FROM sync_state;",
            "Migrations/m0024_one_clock_tick.sql"
        ),
        ("-- hlc INTEGER NOT NULL, -- hybrid logical clock: milliseconds * 65536 + counter", "Migrations/m0011_sharing.sql"),
        ("ORDER BY seq", "RemoteSync/Session/ChangeLog.swift"),
    ])
    func theCheckerAllowsTheOneHome(line: String, file: String) {
        #expect(Self.findings(in: line + "\n", file: file).isEmpty)
    }
}
