/// What a purchase's adjustments are, before they are applied: the inputs of `Breakdown.compute`.
public struct AdjustmentInputs: Hashable, Sendable {
    public var discount: AdjustmentSpec?
    public var service: AdjustmentSpec?
    public var tax: AdjustmentSpec?
    public var taxIncluded: Bool
    public var tip: AdjustmentSpec?
    public var rounding: RoundingMode
    /// Whether a percentage tip is taken of S + V + T instead of S (setting `tip_base = "taxed"`).
    public var tipOnTaxed: Bool

    public init(
        discount: AdjustmentSpec? = nil, service: AdjustmentSpec? = nil, tax: AdjustmentSpec? = nil,
        taxIncluded: Bool = false, tip: AdjustmentSpec? = nil, rounding: RoundingMode = .halfUp,
        tipOnTaxed: Bool = false
    ) {
        self.discount = discount
        self.service = service
        self.tax = tax
        self.taxIncluded = taxIncluded
        self.tip = tip
        self.rounding = rounding
        self.tipOnTaxed = tipOnTaxed
    }
}

/// A purchase's price and adjustments, in integer minor units of its currency.
///
/// The order is the README's contract; each step is rounded to minor units with `rounding`:
/// 1. discount D (≤ P), subtotal S = P − D;
/// 2. service V on S, taxable base B = S + V;
/// 3. tax T: added, T = B × r; or included, T = B × r / (1 + r), shown as "of which" and not added;
/// 4. tip G on S (or on B + T with `tipOnTaxed`);
/// 5. total = S + V + (T if added) + G.
public struct Breakdown: Hashable, Sendable, Codable {
    public let price: Int64
    public let discount: Int64
    public let subtotal: Int64
    public let service: Int64
    public let tax: Int64
    public let taxIncluded: Bool
    public let tip: Int64
    public let total: Int64

    public init(
        price: Int64, discount: Int64, subtotal: Int64, service: Int64, tax: Int64,
        taxIncluded: Bool, tip: Int64, total: Int64
    ) {
        self.price = price
        self.discount = discount
        self.subtotal = subtotal
        self.service = service
        self.tax = tax
        self.taxIncluded = taxIncluded
        self.tip = tip
        self.total = total
    }

    /// An amount with nothing added or taken off (a transfer, a `trip convert`).
    public static func unadjusted(_ amount: Int64) -> Breakdown {
        Breakdown(price: amount, discount: 0, subtotal: amount, service: 0, tax: 0, taxIncluded: false, tip: 0, total: amount)
    }

    /// Applies `inputs` to `price` (minor units of `currency`).
    public static func compute(price: Int64, currency: Currency, inputs: AdjustmentInputs) throws(TripError) -> Breakdown {
        let mode = inputs.rounding
        func amount(_ spec: AdjustmentSpec?, of base: Int64, field: String, divideBy: Rational? = nil) throws(TripError) -> Int64 {
            guard let spec else { return 0 }
            switch spec {
            case .amount(let text):
                return try AmountExpression.evaluate(text, field: field, minorUnits: currency.minorUnits, rounding: mode, currencyCode: currency.code)
            case .percent(let fraction, _):
                do {
                    var v = try Rational(Int64(base)) * fraction
                    if let divideBy { v = try v / divideBy }
                    return try v.roundedToInt64(mode)
                } catch {
                    throw .badAmount(field: field, value: spec.description, reason: "is too large for 64-bit minor units")
                }
            }
        }
        func add(_ a: Int64, _ b: Int64, _ field: String) throws(TripError) -> Int64 {
            let (s, o) = a.addingReportingOverflow(b)
            guard !o else { throw .badAmount(field: field, value: String(b), reason: "makes the total too large for 64-bit minor units") }
            return s
        }

        let d = try amount(inputs.discount, of: price, field: "discount")
        guard d <= price else {
            throw .adjustmentExceedsPrice(
                field: "discount", value: inputs.discount!.description,
                price: Money(minorUnits: price, currency: currency).plainText)
        }
        let s = price - d
        let v = try amount(inputs.service, of: s, field: "service")
        let b = try add(s, v, "service")
        var t: Int64 = 0
        if inputs.taxIncluded, case .percent(let r, _)? = inputs.tax {
            let onePlus = (try? Rational.one + r) ?? .one
            t = try amount(inputs.tax, of: b, field: "tax", divideBy: onePlus)
        } else {
            t = try amount(inputs.tax, of: b, field: "tax")
        }
        if inputs.taxIncluded && t > b {
            throw .adjustmentExceedsPrice(
                field: "tax", value: inputs.tax!.description,
                price: Money(minorUnits: b, currency: currency).plainText)
        }
        let taxed = inputs.taxIncluded ? b : try add(b, t, "tax")
        let g = try amount(inputs.tip, of: inputs.tipOnTaxed ? taxed : s, field: "tip")
        let total = try add(taxed, g, "tip")
        return Breakdown(
            price: price, discount: d, subtotal: s, service: v, tax: t,
            taxIncluded: inputs.taxIncluded, tip: g, total: total)
    }
}
