import Testing

@testable import TripCore

/// Worked examples from real receipts. Amounts are minor units of the receipt's currency.
@Suite("Adjustments: worked receipts")
struct BreakdownTests {
    struct Receipt: CustomTestStringConvertible, Sendable {
        let label: String
        let currency: String
        let price: String
        var discount: String? = nil
        var service: String? = nil
        var tax: String? = nil
        var included = false
        var tip: String? = nil
        var rounding = RoundingMode.halfUp
        // Expected: discount, service, tax, tip, total
        let expected: (Int64, Int64, Int64, Int64, Int64)
        var testDescription: String { label }
    }

    static let receipts: [Receipt] = [
        // Japan: ¥1,000 including 10% consumption tax holds ¥90 of tax, floored (1000 × 10/110 = 90.9).
        Receipt(
            label: "JP ¥1,000 incl. 10%, floored", currency: "JPY", price: "1000", tax: "10%", included: true,
            rounding: .floor, expected: (0, 0, 90, 0, 1000)),
        Receipt(
            label: "JP ¥298 groceries incl. 8%, floored", currency: "JPY", price: "298", tax: "8%", included: true,
            rounding: .floor, expected: (0, 0, 22, 0, 298)),
        Receipt(
            label: "JP 3×¥1,200 less 10%, incl. 10%, floored", currency: "JPY", price: "3*1200", discount: "10%",
            tax: "10%", included: true, rounding: .floor, expected: (360, 0, 294, 0, 3240)),
        Receipt(
            label: "JP same receipt, half-up", currency: "JPY", price: "3*1200", discount: "10%",
            tax: "10%", included: true, expected: (360, 0, 295, 0, 3240)),
        // Singapore "++": 10% service on the price, then 9% GST on price + service.
        Receipt(
            label: "SG S$100++", currency: "SGD", price: "100", service: "10%", tax: "9%",
            expected: (0, 1000, 990, 0, 11990)),
        Receipt(
            label: "SG S$25++ (GST 2.475 rounds up)", currency: "SGD", price: "25", service: "10%", tax: "9%",
            expected: (0, 250, 248, 0, 2998)),
        Receipt(
            label: "SG S$38.80++", currency: "SGD", price: "38.80", service: "10%", tax: "9%",
            expected: (0, 388, 384, 0, 4652)),
        // New York: 8.875% sales tax added, 20% tip on the pre-tax subtotal.
        Receipt(
            label: "NY $48.50 + 8.875% + 20% tip", currency: "USD", price: "48.50", tax: "8.875%", tip: "20%",
            expected: (0, 0, 430, 970, 6250)),
        Receipt(
            label: "NY $87.00 + 8.875% + 20% tip", currency: "USD", price: "87", tax: "8.875%", tip: "20%",
            expected: (0, 0, 772, 1740, 11212)),
        // EU VAT included: tax = price × r / (1 + r).
        Receipt(
            label: "DE €11.90 incl. 19% VAT", currency: "EUR", price: "11.90", tax: "19%", included: true,
            expected: (0, 0, 190, 0, 1190)),
        Receipt(
            label: "GB £12.00 incl. 20% VAT", currency: "GBP", price: "12.00", tax: "20%", included: true,
            expected: (0, 0, 200, 0, 1200)),
        Receipt(
            label: "FR €4.50 coffee incl. 20% TVA", currency: "EUR", price: "4.50", tax: "20%", included: true,
            expected: (0, 0, 75, 0, 450)),
        // Minor units: KWD has 3 decimals, JPY none.
        Receipt(
            label: "KWD 1.250 + 5% service", currency: "KWD", price: "1.250", service: "5%",
            expected: (0, 63, 0, 0, 1313)),
        Receipt(
            label: "JPY ¥1,234 + 8% tax, half-up", currency: "JPY", price: "1234", tax: "8%",
            expected: (0, 0, 99, 0, 1333)),
        Receipt(
            label: "USD $10.25 + 10% tip, half-even", currency: "USD", price: "10.25", tip: "10%", rounding: .halfEven,
            expected: (0, 0, 0, 102, 1127)),
        Receipt(
            label: "USD $10.25 + 10% tip, half-up", currency: "USD", price: "10.25", tip: "10%",
            expected: (0, 0, 0, 103, 1128)),
        Receipt(
            label: "discount as an amount", currency: "JPY", price: "1500", discount: "500", tax: "10%",
            expected: (500, 0, 100, 0, 1100)),
    ]

    @Test(arguments: receipts)
    func receipt(_ r: Receipt) throws {
        let c = try CurrencyTable.shared.currency(for: r.currency)
        let inputs = AdjustmentInputs(
            discount: try r.discount.map { try AdjustmentSpec.parse($0, field: "discount") },
            service: try r.service.map { try AdjustmentSpec.parse($0, field: "service") },
            tax: try r.tax.map { try AdjustmentSpec.parse($0, field: "tax") },
            taxIncluded: r.included,
            tip: try r.tip.map { try AdjustmentSpec.parse($0, field: "tip") },
            rounding: r.rounding)
        let price = try AmountExpression.evaluate(r.price, minorUnits: c.minorUnits, rounding: r.rounding)
        let b = try Breakdown.compute(price: price, currency: c, inputs: inputs)
        #expect(b.discount == r.expected.0)
        #expect(b.service == r.expected.1)
        #expect(b.tax == r.expected.2)
        #expect(b.tip == r.expected.3)
        #expect(b.total == r.expected.4)
        #expect(b.total == b.subtotal + b.service + (b.taxIncluded ? 0 : b.tax) + b.tip)
    }

    @Test func tipOnTaxedBaseWhenConfigured() throws {
        let usd = try CurrencyTable.shared.currency(for: "USD")
        let inputs = AdjustmentInputs(
            tax: .percent(try Rational(8875, 100_000), text: "8.875%"),
            tip: .percent(try Rational(1, 5), text: "20%"), tipOnTaxed: true)
        let b = try Breakdown.compute(price: 4850, currency: usd, inputs: inputs)
        #expect(b.tip == 1056)  // 20% of 48.50 + 4.30
        #expect(b.total == 4850 + 430 + 1056)
    }

    @Test func discountAbovePriceIsRejected() throws {
        let jpy = try CurrencyTable.shared.currency(for: "JPY")
        #expect(throws: TripError.self) {
            try Breakdown.compute(price: 1000, currency: jpy, inputs: AdjustmentInputs(discount: .amount("1500")))
        }
    }

    @Test(
        "percent parsing",
        arguments: [
            ("20%", true), ("8.875%", true), ("8,875%", true), ("0%", true), ("100%", true),
            ("-5%", false), ("150%", false), ("NaN%", false), ("1e400%", false), ("%", false), ("abc%", false),
        ])
    func percents(text: String, ok: Bool) {
        let result = Result { try AdjustmentSpec.parse(text, field: "discount") }
        if ok {
            #expect((try? result.get()) != nil, "\(text)")
        } else {
            #expect((try? result.get()) == nil, "\(text)")
        }
    }
}
