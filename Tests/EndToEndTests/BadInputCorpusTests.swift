import Exchange
import Foundation
import TestSupport
import Testing
import TripLedger

@testable import Storage

#if canImport(Glibc)
import Glibc
import TripModel
import Rendering
#endif

/// One row of `Fixtures/bad-inputs.tsv` (its header documents the format).
struct CorpusCase: Sendable, CustomTestStringConvertible {
    let line: Int
    let id: String
    let exitCode: Int32
    /// stderr must contain this (the field, usually with the value).
    let expect: String
    /// Raw argument bytes; `@file` stands for the path of the file written from `input`.
    let argv: [[UInt8]]
    let input: [UInt8]?

    var testDescription: String { "\(id) (line \(line))" }
    var usesFile: Bool { argv.contains(Array("@file".utf8)) }
}

/// Reads the corpus and its escapes.
enum BadInputCorpus {
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    static let cases: [CorpusCase] = {
        let url = Bundle.module.url(forResource: "Fixtures/bad-inputs.tsv", withExtension: nil)!
        // A malformed corpus must fail loudly, not shrink silently: `corpusIsWellFormed` reports it.
        return (try? parse(Array(try! Data(contentsOf: url)))) ?? []
    }()

    static func parse(_ bytes: [UInt8]) throws -> [CorpusCase] {
        var out: [CorpusCase] = []
        for (n, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = String(decoding: raw, as: UTF8.self)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard (4...5).contains(cols.count) else {
                throw FormatError(description: "line \(n + 1): \(cols.count) columns; want 4 or 5")
            }
            guard let code = Int32(cols[1]), code == 64 || code == 65 else {
                throw FormatError(description: "line \(n + 1): exit \(cols[1]) is not 64 or 65")
            }
            let argv = try cols[3].split(separator: " ").map { try decode($0, line: n + 1) }
            if argv.contains(where: { $0.contains(0) }) {
                throw FormatError(
                    description: "line \(n + 1): an argument cannot hold NUL (execve ends it there); use the input column")
            }
            let expect = String(decoding: try decode(cols[2], line: n + 1), as: UTF8.self)
            guard !expect.isEmpty else { throw FormatError(description: "line \(n + 1): empty expect column") }
            out.append(
                CorpusCase(
                    line: n + 1, id: String(cols[0]), exitCode: code, expect: expect, argv: argv,
                    input: cols.count == 5 ? try decode(cols[4], line: n + 1) : nil))
        }
        return out
    }

    /// Decodes one cell: `""` alone is empty; `\\ \s \t \n \r \xNN \u{HEX} \{COUNT*TEXT}`.
    static func decode(_ cell: Substring, line: Int) throws -> [UInt8] {
        if cell == "\"\"" { return [] }
        let s = Array(cell.utf8)
        var out: [UInt8] = []
        var i = 0
        func fail(_ why: String) -> FormatError { FormatError(description: "line \(line): \(why) in \(cell)") }
        while i < s.count {
            guard s[i] == UInt8(ascii: "\\") else { out.append(s[i]); i += 1; continue }
            guard i + 1 < s.count else { throw fail("a lone backslash at the end") }
            let c = s[i + 1]
            i += 2
            switch c {
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "s"): out.append(0x20)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "x"):
                guard i + 2 <= s.count, let b = UInt8(String(decoding: s[i..<(i + 2)], as: UTF8.self), radix: 16) else {
                    throw fail("a bad \\x escape")
                }
                out.append(b)
                i += 2
            case UInt8(ascii: "u"):
                guard i < s.count, s[i] == UInt8(ascii: "{"), let close = s[i...].firstIndex(of: UInt8(ascii: "}")),
                    let v = UInt32(String(decoding: s[(i + 1)..<close], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(v)
                else { throw fail("a bad \\u{…} escape") }
                out += Array(String(Character(scalar)).utf8)
                i = close + 1
            case UInt8(ascii: "{"):
                guard let star = s[i...].firstIndex(of: UInt8(ascii: "*")),
                    let close = s[star...].firstIndex(of: UInt8(ascii: "}")),
                    let count = Int(String(decoding: s[i..<star], as: UTF8.self)), count > 0
                else {
                    throw fail("a bad \\{COUNT*TEXT} repeat")
                }
                let unit = try decode(Substring(String(decoding: s[(star + 1)..<close], as: UTF8.self)), line: line)
                for _ in 0..<count { out += unit }
                i = close + 1
            default: throw fail("an unknown escape \\\(Character(Unicode.Scalar(c)))")
            }
        }
        return out
    }
}

/// A ledger with three trips (one closed), a manual rate and purchases, built once and copied
/// for every case.
final class CorpusLedger: Sendable {
    static let shared = CorpusLedger()
    let folder = TemporaryFolder("trip-corpus")
    var path: String { folder.file("ledger.sqlite") }

    init() {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let steps: [[String]] = [
            ["new", "Japan", "--currency", "JPY", "--home", "USD"], ["rates", "set", "JPY", "0.0067"],
            ["add", "1200", "ramen", "--preset", "JP"], ["add", "25", "USD", "airport", "--category", "food"],
            ["new", "Kuwait", "--currency", "KWD", "--home", "USD"], ["add", "1.250", "KWD", "tea"],
            ["new", "Old", "--currency", "EUR", "--home", "USD"], ["add", "10", "museum"], ["close", "Old"],
            ["use", "Japan"],
        ]
        for s in steps {
            let r = try! trip.run(s)
            precondition(r.exitCode == 0, "corpus ledger setup \(s): \(r.stderr)")
        }
    }

    /// A copy of the ledger in `folder`.
    func copy(into folder: TemporaryFolder) throws -> String {
        let fm = FileManager.default
        for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: path + suffix) {
            try fm.copyItem(atPath: path + suffix, toPath: folder.file("ledger.sqlite" + suffix))
        }
        return folder.file("ledger.sqlite")
    }
}

/// Issue 5, "Hostile input": every row of `Fixtures/bad-inputs.tsv` through the `trip` binary.
@Suite("End to end: the bad-input corpus")
struct BadInputCorpusTests {
    @Test func corpusIsWellFormed() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/bad-inputs.tsv", withExtension: nil))
        let cases = try BadInputCorpus.parse(Array(try Data(contentsOf: url)))
        #expect(cases.count >= 200)
        #expect(Set(cases.map(\.id)).count == cases.count, "ids are unique")
        for c in cases where c.usesFile { #expect(c.input != nil, "\(c.id): @file needs an input column") }
        #expect(
            try BadInputCorpus.decode(#"a\sb\x00\u{1b}\{3*ab}\\"#, line: 0) == Array("a b".utf8) + [0, 0x1B]
                + Array("ababab\\".utf8))
    }

    @Test(arguments: BadInputCorpus.cases)
    func rejectedCleanly(_ c: CorpusCase) throws {
        let folder = TemporaryFolder("trip-bad")
        let ledger = try CorpusLedger.shared.copy(into: folder)
        let before = try dumpLedger(ledger)
        let beforeBytes = try Data(contentsOf: URL(fileURLWithPath: ledger))

        var stdin: [UInt8]?
        var argv = c.argv
        if let input = c.input {
            let file = folder.file("input")
            try Data(input).write(to: URL(fileURLWithPath: file))
            if c.usesFile { argv = argv.map { $0 == Array("@file".utf8) ? Array(file.utf8) : $0 } } else { stdin = input }
        }
        let env = TripProcess(ledgerPath: ledger).environment
        let r = try spawnAndWait(TripProcess.binary, argv, environment: env, stdin: stdin)
        let stderr = String(decoding: r.stderr, as: UTF8.self)

        #expect(r.signal == nil, "killed by signal \(r.signal ?? 0)")
        #expect(r.exitCode == c.exitCode, "exit \(r.exitCode.map(String.init) ?? "-"): \(stderr)")
        #expect(r.stdout.isEmpty, "stdout: \(String(decoding: r.stdout.prefix(200), as: UTF8.self))")
        #expect(stderr.hasPrefix("trip: ") && r.stderr.last == 0x0A, "\(stderr)")
        #expect(r.stderr.filter { $0 == 0x0A }.count == 1, "one line: \(stderr)")
        #expect(stderr.contains(c.expect), "wanted \(c.expect) in: \(stderr)")
        #expect(r.stderr.count <= 600, "\(r.stderr.count) bytes of stderr")
        #expect(String(validatingCString: r.stderr.map { CChar(bitPattern: $0) } + [0]) != nil, "stderr is valid UTF-8")
        #expect(!rawControl(in: r.stderr.dropLast()), "raw control bytes in: \(stderr.debugDescription)")
        #expect(try dumpLedger(ledger) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: ledger)) == beforeBytes)
    }

    /// True if `bytes` holds a C0 control, DEL or a C1 control (UTF-8 `C2 80`…`C2 9F`).
    func rawControl<C: Collection<UInt8>>(in bytes: C) -> Bool {
        var previous: UInt8 = 0
        for b in bytes {
            if b < 0x20 || b == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(b)) { return true }
            previous = b
        }
        return false
    }
}

/// The text policy's other side: what is accepted, and what a ledger that already holds hostile
/// text prints.
@Suite("End to end: text in notes and names")
struct TextPolicyTests {
    /// Every string anywhere in a JSON document.
    func strings(in json: Any) -> [String] {
        if let s = json as? String { return [s] }
        if let a = json as? [Any] { return a.flatMap { strings(in: $0) } }
        if let o = json as? [String: Any] { return o.values.flatMap { strings(in: $0) } }
        return []
    }

    @Test func sqlInNotesIsStoredVerbatim() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        let payloads = [
            "'); DROP TABLE purchases;--", "Robert'); DROP TABLE trips; --", "1; DELETE FROM purchases WHERE 1=1",
            "\" OR \"\"=\"", "x'); UPDATE trips SET name='pwned' WHERE ('1'='1", "%' OR note LIKE '%",
        ]
        for p in payloads {
            let r = try trip.run("add", "100", "--note", p, "--category", p)
            #expect(r.exitCode == 0, "\(p): \(r.stderr)")
        }
        let dump = try dumpLedger(folder.file("ledger.sqlite"))
        #expect(dump.contains("## purchases") && dump.contains("## trips"))
        let listed = try trip.run("list", "--format", "json")
        let notes = strings(in: try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)))
        for p in payloads {
            #expect(notes.contains(p), "note round-trips: \(p)")
            #expect(notes.contains(p.lowercased()), "category round-trips: \(p)")
        }
        #expect(try trip.run("show", "Japan").stdout.contains("purchases       \(payloads.count)"))
        #expect(try trip.run("trips").stdout.contains("Japan"))
    }

    @Test func printableTextIsAccepted() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "日本 🇯🇵", "--currency", "JPY").exitCode == 0)
        for note in [
            "a\ttab", "two\nlines", "crlf\r\nbreak", String(repeating: "x", count: 4096), String(repeating: "€", count: 1365),
            "مطعم", "👩‍👩‍👧 family",
        ] {
            let r = try trip.run("add", "100", "--note", note)
            #expect(r.exitCode == 0, "\(note.prefix(20)): \(r.stderr)")
        }
        // The tab is stored as typed, and escaped only when shown to people.
        #expect(try trip.run("list", "--format", "json").stdout.contains("a\\ttab"))
        #expect(try trip.run("list").stdout.contains("a\\u{9}tab"))
        let r = try trip.run("new", String(repeating: "n", count: 200), "--currency", "EUR")
        #expect(r.exitCode == 0, "\(r.stderr)")
    }

    /// Old spreadsheet exports end lines with a lone CR: read as line ends, not rejected.
    @Test func carriageReturnLineEndsImport() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        let file = folder.file("statement.csv")
        try "Date,Amount\r2026-03-01,1200\r2026-03-02,1300\r".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run(
            "import", file, "--date-column", "Date", "--amount-column", "Amount", "--currency", "JPY", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["imported"] as? Int == 2)
    }

    @Test func aByteOrderMarkAtTheStartOfACSVIsFine() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        let file = folder.file("statement.csv")
        try Data([0xEF, 0xBB, 0xBF] + Array("Date,Amount\n2026-03-01,1200\n".utf8)).write(to: URL(fileURLWithPath: file))
        let r = try trip.run("import", file, "--date-column", "Date", "--amount-column", "Amount", "--currency", "JPY")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try trip.run("list").stdout.contains("JPY 1,200"))
    }

    /// A ledger written before the policy (or edited by hand) may hold anything: every output for
    /// people escapes it; JSON keeps it exact.
    @Test func controlBytesInALedgerNeverReachTheTerminal() throws {
        let folder = TemporaryFolder()
        let path = folder.file("ledger.sqlite")
        let trip = TripProcess(ledgerPath: path)
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067").exitCode == 0)
        try #require(trip.run("add", "1200", "placeholder", "--category", "food").exitCode == 0)
        let evil = "red\u{1B}[31m bell\u{07} back\u{08} cr\u{0D} bidi\u{202E}txt c1\u{9B}2J end"
        let evilName = "Jap\u{1B}]0;pwned\u{07}an\u{202E}"
        do {
            let db = try Database(path: path, create: false)
            try db.run("UPDATE purchases SET note = ?, category = ?", [.text(evil), .text("fo\u{1B}[1mod\u{9B}")])
            try db.run("UPDATE trips SET name = ?", [.text(evilName)])
        }
        let raw: [[UInt8]] = [[0x1B], [0x07], [0x08], [0x0D], Array("\u{202E}".utf8), Array("\u{9B}".utf8)]
        func hasRaw(_ s: String) -> Bool {
            let b = Array(s.utf8)
            return raw.contains { r in b.indices.contains { i in b[i...].starts(with: r) } }
        }
        let runs: [[String]] = [
            ["list"], ["show"], ["trips"], ["report", "--lines"], ["report", "--lines", "--format", "markdown"],
            ["report", "--lines", "--format", "html"], ["report", "--format", "csv"],
            ["report", "--lines", "--by", "category"], ["list", "--format", "json"], ["report", "--lines", "--format", "json"],
        ]
        for args in runs {
            let r = try trip.run(args)
            #expect(r.exitCode == 0, "\(args): \(r.stderr)")
            // CSV ends its records with CRLF (RFC 4180); any other CR would be raw.
            let shown = args.contains("csv") ? r.stdout.replacingOccurrences(of: "\r\n", with: "\n") : r.stdout
            #expect(!hasRaw(shown), "\(args) printed a raw control: \(r.stdout.debugDescription)")
            #expect(!hasRaw(r.stderr))
            if args.contains("json") {
                let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
                #expect(strings(in: doc).contains(evil), "\(args): JSON keeps the exact note")
            } else if args.first != "trips" && args.first != "show" {
                #expect(r.stdout.contains("\\u{1b}[31m") && r.stdout.contains("\\u{202e}"), "\(args): \(r.stdout)")
            }
        }
        // Commands that name the trip in their result (here `import`) escape it too.
        let csv = folder.file("statement.csv")
        try Data("Date,Amount\n2026-03-01,500\n".utf8).write(to: URL(fileURLWithPath: csv))
        let imported = try trip.run("import", csv, "--date-column", "Date", "--amount-column", "Amount", "--currency", "JPY")
        #expect(imported.exitCode == 0 && imported.stdout.contains("imported 1 purchase"), "\(imported.stderr)")
        #expect(!hasRaw(imported.stdout), "\(imported.stdout.debugDescription)")
        // An error that echoes the stored name escapes it too.
        let e = try trip.run("new", evilName.replacingOccurrences(of: "\u{1B}", with: ""), "--currency", "JPY")
        #expect(!hasRaw(e.stderr))
        let e2 = try trip.run("use", evilName)
        #expect(e2.exitCode == 0 && !hasRaw(e2.stdout), "\(e2.stderr)")
    }
}
