/// Reads an amount pasted with its currency marker: `¥1,200`, `1200円`, `$12.50`, `₩8,900`,
/// `12.50USD`, `€ 8,50`, `S$25`.
///
/// A marker may stand for several currencies (`¥` is JPY or CNY, `$` any dollar). It is read
/// when it fits the purchase: the currency typed beside the amount, else the trip's, is one it
/// may stand for, or, with no currency typed, the marker names exactly one. Otherwise the amount is
/// rejected with the exact words to type, each of them valid input.
public enum PastedAmount {
    /// Currency symbols and the codes each may stand for, the likeliest first. Longer symbols come
    /// first so that `S$` is not read as `$`.
    static let symbols: [(symbol: String, codes: [String])] = [
        ("US$", ["USD"]), ("AU$", ["AUD"]), ("CA$", ["CAD"]), ("HK$", ["HKD"]), ("NZ$", ["NZD"]), ("NT$", ["TWD"]),
        ("MX$", ["MXN"]), ("JP¥", ["JPY"]), ("CN¥", ["CNY"]), ("RMB", ["CNY"]), ("S$", ["SGD"]), ("A$", ["AUD"]), ("C$", ["CAD"]), ("R$", ["BRL"]),
        ("$", ["USD", "SGD", "AUD", "CAD", "NZD", "HKD", "TWD", "MXN"]),
        ("¥", ["JPY", "CNY"]), ("￥", ["JPY", "CNY"]), ("円", ["JPY"]), ("元", ["CNY"]),
        ("₩", ["KRW"]), ("€", ["EUR"]), ("£", ["GBP"]), ("₹", ["INR"]), ("฿", ["THB"]), ("₫", ["VND"]),
        ("₱", ["PHP"]), ("₺", ["TRY"]), ("₪", ["ILS"]), ("₽", ["RUB"]), ("zł", ["PLN"]), ("Kč", ["CZK"]), ("RM", ["MYR"]), ("Rp", ["IDR"]),
    ]

    /// The amount without its marker and the currency to use (`given` when no marker was
    /// pasted). `purchaseCurrency` is the currency used when none is typed (the trip's, or the
    /// edited purchase's); `retype` spells a command line for an amount and a code, for errors.
    public static func read(
        _ text: String, given: String?, purchaseCurrency: Currency,
        retype: (_ amount: String, _ code: String) -> String
    ) throws(TripError) -> (amount: String, currency: String?) {
        var rest = Substring(text)
        var markers: [String] = []
        var codes: [String]? = nil
        trimSpaces(&rest)
        // At most two markers: `$12.50 USD`.
        for _ in 0..<2 {
            guard let (marker, candidates) = stripMarker(&rest) else { break }
            markers.append(marker)
            codes = codes.map { c in c.filter(candidates.contains) } ?? candidates
            trimSpaces(&rest)
        }
        guard let codes, !rest.isEmpty else { return (text, given) }
        let number = String(rest)
        let marked = markers.map { "\"\($0)\"" }.joined(separator: " and ")
        let table = CurrencyTable.shared
        guard !codes.isEmpty else {
            throw .badAmount(field: "amount", value: text, reason: "names two different currencies (\(marked)); type the number and one code")
        }
        if let given {
            let typed = try table.currency(for: given).code
            if codes.contains(typed) { return try checked(number, typed, pasted: text) }
            throw .badAmount(
                field: "amount", value: text,
                reason: "has \(marked), which is not \(typed); \(suggest(number, codes, retype))")
        }
        if codes.contains(purchaseCurrency.code) { return try checked(number, purchaseCurrency.code, pasted: text) }
        if codes.count == 1 { return try checked(number, codes[0], pasted: text) }
        throw .badAmount(
            field: "amount", value: text,
            reason: "has \(marked), which may be \(codes.joined(separator: ", ")); \(suggest(number, codes, retype))")
    }

    /// The number and its currency once the number is valid in it; errors quote what was pasted
    /// (`"¥12.50" has 2 decimal places`), not the number left after the marker.
    static func checked(_ number: String, _ code: String, pasted: String) throws(TripError) -> (amount: String, currency: String?) {
        guard let currency = CurrencyTable.shared.lookup(code) else { return (number, code) }
        do {
            _ = try AmountExpression.evaluate(number, minorUnits: currency.minorUnits)
        } catch {
            switch error {
            case let .badAmount(field, _, reason):
                throw .badAmount(field: field, value: pasted, reason: reason.replacing("this currency", with: code))
            case let .ambiguousAmount(field, _, readings, suggestions):
                throw .ambiguousAmount(
                    field: field, value: pasted, readings: readings,
                    suggestions: suggestions.map { "\($0) \(code)" })
            default:
                throw error
            }
        }
        return (number, code)
    }

    /// "type: trip add 1200 JPY or trip add 1200 CNY", naming only inputs that are accepted as typed.
    static func suggest(_ number: String, _ codes: [String], _ retype: (String, String) -> String) -> String {
        var lines: [String] = []
        // The three likeliest in full; a longer list (any dollar) would not fit one line.
        for code in codes.prefix(3) {
            guard let currency = CurrencyTable.shared.lookup(code) else { continue }
            for form in validForms(number, currency) { lines.append(retype(form, code)) }
        }
        let others = codes.count > 3 ? " (or another code: \(codes.dropFirst(3).joined(separator: ", ")))" : ""
        return lines.isEmpty ? "type the number and its currency code" : "type: " + lines.joined(separator: " or ") + others
    }

    /// `number` as typed when the currency accepts it, else the readings it would accept
    /// (`1,200` in CNY is 1200 or 1.2), else nothing.
    static func validForms(_ number: String, _ currency: Currency) -> [String] {
        do {
            _ = try AmountExpression.evaluate(number, minorUnits: currency.minorUnits)
            return [number]
        } catch {
            guard case .ambiguousAmount(_, _, _, let suggestions) = error else { return [] }
            return suggestions.filter { (try? AmountExpression.evaluate($0, minorUnits: currency.minorUnits)) != nil }
        }
    }

    /// Removes a leading or trailing symbol or ISO code; returns it and the codes it may mean.
    static func stripMarker(_ s: inout Substring) -> (String, [String])? {
        for (symbol, codes) in symbols {
            if s.hasPrefix(symbol) { s = s.dropFirst(symbol.count); return (symbol, codes) }
            if s.hasSuffix(symbol) { s = s.dropLast(symbol.count); return (symbol, codes) }
        }
        func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }
        // A three-letter code: `12.50USD`, `USD 12.50`. Only a known code, so `3x1200` stays an expression.
        let head = s.prefix(3), tail = s.suffix(3)
        if s.count > 3, head.allSatisfy(isLetter), !isLetter(s.dropFirst(3).first ?? " "),
            let c = CurrencyTable.shared.lookup(String(head))
        {
            s = s.dropFirst(3)
            return (String(head), [c.code])
        }
        if s.count > 3, tail.allSatisfy(isLetter), !isLetter(s.dropLast(3).last ?? " "),
            let c = CurrencyTable.shared.lookup(String(tail))
        {
            s = s.dropLast(3)
            return (String(tail), [c.code])
        }
        return nil
    }

    static func trimSpaces(_ s: inout Substring) {
        while let f = s.unicodeScalars.first, NumberLiteral.isGroupingSpace(f) || f == "\t" { s = s.dropFirst() }
        while let l = s.unicodeScalars.last, NumberLiteral.isGroupingSpace(l) || l == "\t" { s = s.dropLast() }
    }
}
