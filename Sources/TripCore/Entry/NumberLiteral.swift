/// Reads one number as a traveller types or pastes it, with the separator rules of the README
/// ("How numbers are read"):
///
/// - Spaces (also no-break and thin spaces) and apostrophes only ever group thousands: `1 200,50`.
/// - With both `.` and `,`, the one that comes last is the decimal separator: `1.200,50`, `1,200.50`.
/// - A separator that appears more than once groups thousands: `1,200,000`.
/// - A single `.` or `,` is the decimal separator, except when it is followed by exactly three
///   digits after a leading group of 1–3 digits other than `0` (`1,200`, `12.500`). That case is
///   ambiguous, and the currency decides: with no minor units (JPY, KRW) it groups thousands; with
///   three (KWD, BHD, OMR) it is the decimal separator, as prices there are written; for any other
///   currency it is rejected, naming both readings.
/// - Thousands groups must be three digits: `4.5.6` and `12,34,5` are errors.
struct NumberLiteral {
    /// The exact value.
    let value: Rational
    /// Digits after the decimal separator as typed (0 for none).
    let fractionDigits: Int

    static func isGroupingSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\u{00A0}" || s == "\u{202F}" || s == "\u{2009}"
    }

    static func isApostrophe(_ s: Unicode.Scalar) -> Bool { s == "'" || s == "\u{2019}" }

    /// Interprets `text`, which holds only digits, `.`, `,`, grouping spaces and apostrophes.
    /// `whole` is the full user input, quoted in errors.
    static func read(_ text: [Unicode.Scalar], field: String, whole: String, minorUnits: Int) throws(TripError) -> NumberLiteral {
        var runs: [String] = [""]
        var seps: [Character] = []
        for s in text {
            if ("0"..."9").contains(s) {
                runs[runs.count - 1].unicodeScalars.append(s)
            } else {
                seps.append(isGroupingSpace(s) ? " " : isApostrophe(s) ? "'" : Character(s))
                runs.append("")
            }
        }
        func invalid() -> TripError { .badAmount(field: field, value: whole, reason: "is not a valid number") }
        if seps.isEmpty { return try make(integer: runs[0], fraction: "", whole: whole, field: field) }

        let dots = seps.filter { $0 == "." }.count
        let commas = seps.filter { $0 == "," }.count
        let others = seps.count - dots - commas
        var decimalIndex: Int? = nil  // index into seps of the decimal separator
        if dots > 0 && commas > 0 {
            let last = seps.lastIndex { $0 == "." || $0 == "," }!
            let kind = seps[last]
            guard seps.filter({ $0 == kind }).count == 1 else { throw invalid() }
            decimalIndex = last
        } else if dots + commas == 1 {
            let i = seps.firstIndex { $0 == "." || $0 == "," }!
            guard i == seps.count - 1 else { throw invalid() }  // "1.200 500"
            let lead = runs[0], next = runs[i + 1]
            let groupedBefore = others > 0
            if !groupedBefore && next.count == 3 && (1...3).contains(lead.count) && lead != "0" {
                if minorUnits == 0 {
                    decimalIndex = nil
                } else if minorUnits == 3 {
                    decimalIndex = i
                } else {
                    let sep = seps[i]
                    let asGrouping = lead + next
                    var asDecimal = lead + "." + next
                    while asDecimal.hasSuffix("0") { asDecimal.removeLast() }
                    if asDecimal.hasSuffix(".") { asDecimal.removeLast() }
                    let decimals = asDecimal.contains(".") ? asDecimal.split(separator: ".").last!.count : 0
                    // Suggest only what is accepted as typed: 12.345 has too many decimals for USD.
                    guard decimals <= minorUnits else {
                        throw .ambiguousAmount(
                            field: field, value: whole,
                            readings: [
                                "\(asGrouping) if \"\(sep)\" groups thousands",
                                "not \(asDecimal): this currency has \(minorUnits) decimal places",
                            ], suggestions: [asGrouping])
                    }
                    if decimals == 3 { asDecimal += "0" }
                    throw .ambiguousAmount(
                        field: field, value: whole,
                        readings: [
                            "\(asGrouping) if \"\(sep)\" groups thousands", "\(asDecimal) if it is the decimal separator",
                        ], suggestions: [asGrouping, asDecimal])
                }
            } else {
                decimalIndex = i
            }
        }
        // Everything before the decimal separator is thousands grouping: 1-3 digits, then groups of 3.
        let intRuns = decimalIndex.map { Array(runs[0...$0]) } ?? runs
        guard let first = intRuns.first, (1...3).contains(first.count) || intRuns.count == 1 else { throw invalid() }
        for r in intRuns.dropFirst() where r.count != 3 { throw invalid() }
        if let d = decimalIndex {
            let groupingSeps = Set(seps[..<d])
            guard groupingSeps.count <= 1, !groupingSeps.contains(seps[d]) else { throw invalid() }
            guard d == seps.count - 1, !runs[d + 1].isEmpty else { throw invalid() }
            return try make(integer: intRuns.joined(), fraction: runs[d + 1], whole: whole, field: field)
        }
        guard Set(seps).count == 1 else { throw invalid() }
        return try make(integer: runs.joined(), fraction: "", whole: whole, field: field)
    }

    private static func make(integer: String, fraction: String, whole: String, field: String) throws(TripError) -> NumberLiteral {
        guard !(integer.isEmpty && fraction.isEmpty) else {
            throw .badAmount(field: field, value: whole, reason: "is not a valid number")
        }
        let text = (integer.isEmpty ? "0" : integer) + (fraction.isEmpty ? "" : "." + fraction)
        guard let v = Rational(decimalText: text) else {
            throw .badAmount(field: field, value: whole, reason: "is too large for 64-bit minor units")
        }
        return NumberLiteral(value: v, fractionDigits: fraction.count)
    }
}
