import Foundation
import Testing

/// Every statement whose table is `purchases` (or its trash), `trips`, `ledger_settings` or one of
/// the rate tables is written in that table's store under `Sources/Storage/Stores/`, so a column
/// added to one of them is looked for in one file. A statement's table is the one after its
/// INSERT/UPDATE/DELETE, or after its first FROM outside parentheses; a WITH statement's is its
/// main statement's, after the common table expressions. A statement of another table that looks
/// one of these up in a join, a subquery or a common table expression belongs to that other
/// table's code.
@Suite("Stores own their tables' SQL")
struct StoreOwnershipTests {
    static let owned: [String: String] = [
        "purchases": "PurchaseStore.swift", "removed_purchases": "PurchaseStore.swift", "trips": "TripStore.swift",
        "ledger_settings": "SettingsStore.swift", "rate_observations": "RateStore.swift", "provider_state": "RateStore.swift",
        "manual_rates": "RateStore.swift", "members": "MemberStore.swift", "purchase_splits": "SplitStore.swift",
        "split_rest": "SplitStore.swift",
        "transfers": "TransferStore.swift", "id_high_water": "IDStore.swift", "shared_trips": "SyncTables/SyncStore.swift",
        "sync_outbox": "SyncTables/SyncStore.swift", "sync_rows": "SyncTables/SyncStore.swift", "sync_conflicts": "SyncTables/SyncStore.swift",
        "sync_state": "SyncTables/SyncStore.swift", "sync_log_versions": "SyncTables/SyncStore.swift",
    ]

    /// Statements elsewhere that read an owned table first, each with why it stays there.
    static let allowed: [String: String] = [
        // Which purchases still lack a row in sync_rows: a question about the sync tables.
        "SELECT p.id FROM purchases p WHERE p.trip_id = ?1": "Stores/SyncTables/SyncStore.swift",
        // A statement's match writes its charged amount in place: PurchaseStore's own statement, kept
        // in a file of its own beside it (PurchaseStore.swift's column lists change in parallel work).
        "UPDATE purchases SET \u{01}, charged_source = ? WHERE id = ?": "Stores/PurchaseChargedWrite.swift",
    ]

    /// The table a statement writes, or reads first at the top level; nil for other statements.
    static func table(of sql: String) -> String? {
        let words = sql.replacingOccurrences(of: "\n", with: " ").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first?.uppercased() else { return nil }
        func name(after index: Int) -> String? {
            index < words.count ? words[index].trimmingCharacters(in: CharacterSet(charactersIn: "(),;\"")) : nil
        }
        if first == "WITH" {
            // The main statement is the first statement word outside the expressions' parentheses.
            var depth = 0
            for (i, w) in words.enumerated() {
                let word = w.uppercased()
                if depth == 0 && ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(word) {
                    return table(of: words[i...].joined(separator: " "))
                }
                depth += w.filter { $0 == "(" }.count - w.filter { $0 == ")" }.count
            }
            return nil
        }
        switch first {
        case "INSERT":
            return words.firstIndex { $0.uppercased() == "INTO" }.flatMap { name(after: $0 + 1) }
        case "UPDATE": return name(after: 1)
        case "DELETE": return name(after: 2)
        case "SELECT":
            var depth = 0
            for (i, w) in words.enumerated() {
                if depth == 0 && w.uppercased() == "FROM" { return name(after: i + 1) }
                depth += w.filter { $0 == "(" }.count - w.filter { $0 == ")" }.count
            }
            return nil
        default: return nil
        }
    }

    @Test func ownedTablesAreWrittenOnlyInTheirStores() throws {
        // The storage module, the only one that can run SQL on the ledger; the bench's own SQLite
        // reference query is not ledger code.
        let sources = SQLHygieneTests.sources.appendingPathComponent("Storage")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        var seen: [String: Int] = [:]
        var strays: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for literal in SQLChecker.literals(in: text) {
                guard let table = Self.table(of: literal.body), let store = Self.owned[table] else { continue }
                seen[table, default: 0] += 1
                if file.hasSuffix("Stores/" + store) { continue }
                let body = literal.body.trimmingCharacters(in: .whitespacesAndNewlines)
                if Self.allowed.contains(where: { body.hasPrefix($0.key) && file.hasSuffix($0.value) }) { continue }
                strays.append("\(file):\(literal.line): \(table): \(body.prefix(70))")
            }
        }
        #expect(strays.isEmpty, "statements of a store's table outside its store:\n\(strays.joined(separator: "\n"))")
        // The scan must still find the stores' own statements, or the check above proves nothing.
        #expect((seen["purchases"] ?? 0) > 30 && (seen["trips"] ?? 0) > 5 && (seen["ledger_settings"] ?? 0) >= 2, "\(seen)")
        #expect((seen["rate_observations"] ?? 0) >= 5 && (seen["provider_state"] ?? 0) >= 4 && (seen["manual_rates"] ?? 0) >= 5, "\(seen)")
        #expect((seen["members"] ?? 0) >= 4 && (seen["purchase_splits"] ?? 0) >= 5 && (seen["transfers"] ?? 0) >= 5, "\(seen)")
        #expect((seen["sync_outbox"] ?? 0) >= 3 && (seen["id_high_water"] ?? 0) >= 1, "\(seen)")
    }

    @Test(arguments: [
        ("SELECT \\(Purchase.columns) FROM purchases p WHERE p.id = ?", "purchases"),
        ("SELECT count(*) + (SELECT count(*) FROM purchases) FROM sync_outbox WHERE trip_id = ?", "sync_outbox"),
        ("INSERT OR FAIL INTO purchases (a) VALUES (?)", "purchases"),
        ("UPDATE trips SET name = ? WHERE id = ?", "trips"),
        ("DELETE FROM ledger_settings WHERE key = ?", "ledger_settings"),
        ("WITH x AS (SELECT 1 FROM purchases) SELECT 1 FROM manual_rates", "manual_rates"),
        ("WITH a (c) AS (SELECT 1 FROM trips), b AS (SELECT c FROM a) DELETE FROM purchases WHERE id IN b", "purchases"),
        ("SELECT 1", nil),
    ])
    func findsAStatementsTable(sql: String, table: String?) {
        #expect(Self.table(of: sql) == table)
    }
}
