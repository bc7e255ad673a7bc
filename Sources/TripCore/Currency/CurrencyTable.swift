import Embedded

/// The ISO 4217 table compiled into the binary (`config/iso4217.csv`), plus the euro legacy
/// codes of `config/iso4217_retired.csv`.
///
/// Codes whose ISO minor units are "N.A." (gold, SDR, test codes) are known but cannot hold money:
/// `currency(for:)` throws `TripError.currencyWithoutMinorUnits` for them.
public struct CurrencyTable: Sendable {
    public static let shared = CurrencyTable()

    private let byCode: [String: Currency]
    private let noMinorUnits: Set<String>

    init() {
        var map: [String: Currency] = [:]
        var na: Set<String> = []
        for (row, active) in [(Embedded.iso4217, true), (Embedded.iso4217Retired, false)].flatMap({ bytes, active in
            CurrencyTable.rows(bytes).map { ($0, active) }
        }) {
            guard row.count >= 4 else { continue }
            if let minor = Int(row[2]) {
                map[row[0]] = Currency(code: row[0], minorUnits: minor, name: row[3], isActive: active)
            } else if row[2] == "N.A." {
                na.insert(row[0])
            }
        }
        byCode = map
        noMinorUnits = na
    }

    /// Data rows of a small embedded CSV; the last field (the name) may contain commas.
    private static func rows(_ bytes: [UInt8]) -> [[String]] {
        var rows: [[String]] = []
        var fields: [String] = []
        var fieldStart = 0
        var header = true
        for i in 0...bytes.count {
            let b = i < bytes.count ? bytes[i] : 0x0A
            if b == UInt8(ascii: ",") && fields.count < 3 {
                fields.append(String(decoding: bytes[fieldStart..<i], as: UTF8.self))
                fieldStart = i + 1
            } else if b == 0x0A {
                if fieldStart < i || !fields.isEmpty {
                    fields.append(String(decoding: bytes[fieldStart..<i], as: UTF8.self))
                    if !header { rows.append(fields) }
                    header = false
                }
                fields = []
                fieldStart = i + 1
            }
        }
        return rows
    }

    /// All codes that can hold money, sorted.
    public var codes: [String] { byCode.keys.sorted() }

    /// Whether `code` is an active ISO 4217 code (used to filter provider responses).
    public func isActiveCode(_ code: String) -> Bool { byCode[code]?.isActive ?? false }

    /// Looks up a code, case-insensitively. Throws with the nearest codes when unknown.
    public func currency(for text: String) throws(TripError) -> Currency {
        let code = text.uppercased()
        if let c = byCode[code] { return c }
        if noMinorUnits.contains(code) { throw .currencyWithoutMinorUnits(code) }
        throw .unknownCurrency(text, suggestions: suggestions(for: code))
    }

    /// Returns the currency when `text` is a known code in any case, else `nil` (never throws).
    public func lookup(_ text: String) -> Currency? { byCode[text.uppercased()] }

    /// Up to three known codes closest to `code`: same letters in other positions first, then by
    /// edit distance.
    public func suggestions(for code: String) -> [String] {
        let target = Array(code.uppercased().utf8)
        let scored = byCode.values.filter(\.isActive).map { c -> (Int, String) in
            (CurrencyTable.distance(target, Array(c.code.utf8)), c.code)
        }
        return scored.filter { $0.0 <= 2 }.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    /// Damerau-Levenshtein (optimal string alignment) distance, so `UDS` is one step from `USD`.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
