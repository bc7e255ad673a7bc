/// Shape of ISO 4217 alphabetic codes.
enum CurrencyCode {
    /// Exactly three ASCII uppercase letters. Whether the code is *active* is the caller's
    /// `isKnownCurrency` decision.
    static func isWellFormed(_ code: some StringProtocol) -> Bool {
        let utf8 = code.utf8
        return utf8.count == 3 && utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// Well-formed codes from `codes`, uppercased, without `excluded`, de-duplicated and sorted.
    static func normalized(_ codes: [String], excluding excluded: String) -> [String] {
        Set(codes.map { $0.uppercased() }.filter { isWellFormed($0) && $0 != excluded }).sorted()
    }
}
