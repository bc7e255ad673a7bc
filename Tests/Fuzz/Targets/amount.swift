// Fuzz target `amount`: `AmountExpression.evaluate` and `AdjustmentSpec.parse` on any text.
//
// Checks beyond "no crash", for currencies with 0, 2 and 3 minor units:
// - the four rounding modes agree: floor ≤ half-even, half-up ≤ ceiling, ceiling − floor ≤ 1,
//   all ≥ 0, and a mode fails only when another is already at the 64-bit edge;
// - the result re-rendered (plain `1234.50` and grouped `1,234.50`) and re-parsed is the same value;
// - a percentage is within 0…1 and its stored text parses to the same adjustment;
// - every error is one line without control characters.
import TripCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for minorUnits in [0, 2, 3] { checkAmount(text, minorUnits: minorUnits) }
    checkAdjustment(text)
    return 0
}

func evaluate(_ text: String, _ minorUnits: Int, _ mode: RoundingMode) -> Result<Int64, TripError> {
    Result { () throws(TripError) -> Int64 in try AmountExpression.evaluate(text, minorUnits: minorUnits, rounding: mode) }
}

func checkAmount(_ text: String, minorUnits: Int) {
    var values: [RoundingMode: Int64] = [:]
    var failure: TripError?
    for mode in RoundingMode.allCases {
        switch evaluate(text, minorUnits, mode) {
        case .success(let v): values[mode] = v
        case .failure(let e):
            requireOneLine(e.description, "amount")
            failure = e
        }
    }
    guard !values.isEmpty else { return }
    if let failure {
        // Only overflow may depend on the rounding mode, and only next to Int64.max.
        require(
            values.values.allSatisfy { $0 >= Int64.max - 1 },
            "rounding modes disagree on \(text.debugDescription): \(values) vs \(failure)")
        return
    }
    let floor = values[.floor]!, ceiling = values[.ceiling]!
    require(floor >= 0, "negative amount \(floor) from \(text.debugDescription)")
    require(ceiling >= floor && ceiling - floor <= 1, "floor \(floor) ceiling \(ceiling) for \(text.debugDescription)")
    for mode in [RoundingMode.halfUp, .halfEven] {
        require(
            (floor...ceiling).contains(values[mode]!),
            "\(mode) \(values[mode]!) outside floor…ceiling for \(text.debugDescription)")
    }
    let value = values[.halfUp]!
    let plain = Money(minorUnits: value, currency: currency(minorUnits)).plainText
    for rendered in [plain, Money.group(plain)] {
        switch evaluate(rendered, minorUnits, .halfUp) {
        case .success(let again):
            require(
                again == value,
                "\(text.debugDescription) → \(value) rendered \(rendered) re-parses to \(again) (minor units \(minorUnits))")
        case .failure(let e):
            require(false, "\(text.debugDescription) → \(value) rendered \(rendered) does not re-parse: \(e)")
        }
    }
}

func currency(_ minorUnits: Int) -> Currency {
    switch minorUnits {
    case 0: Currency(code: "JPY", minorUnits: 0, name: "Yen")
    case 3: Currency(code: "KWD", minorUnits: 3, name: "Kuwaiti Dinar")
    default: Currency(code: "EUR", minorUnits: 2, name: "Euro")
    }
}

func checkAdjustment(_ text: String) {
    let spec: AdjustmentSpec
    do { spec = try AdjustmentSpec.parse(text, field: "discount") } catch {
        requireOneLine(error.description, "adjustment")
        return
    }
    switch spec {
    case .percent(let fraction, let stored):
        require(!fraction.isNegative && fraction <= .one, "percentage \(fraction) out of 0…1 from \(text.debugDescription)")
        let again = try? AdjustmentSpec.parse(stored, field: "discount")
        require(again == spec, "stored percentage \(stored.debugDescription) re-parses to \(String(describing: again))")
    case .amount(let stored):
        require(
            !stored.isEmpty && stored == stored.trimmingSpaces,
            "amount adjustment keeps untrimmed text \(stored.debugDescription)")
    }
}
