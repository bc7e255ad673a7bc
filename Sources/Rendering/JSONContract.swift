import TripCore
import TripModel

// The `--format json` contract, documented in README.md ("JSON output"). Changing a key or its
// type is a breaking change. Money is a decimal string with exactly the currency's minor digits.

extension Purchase {
    public var json: JSONValue {
        let b = breakdown, c = conversion, q = conversion.quote
        func money(_ v: Int64) -> JSONValue { .string(Money(minorUnits: v, currency: currency).plainText) }
        func home(_ v: Int64?) -> JSONValue { JSONValue(v.map { Money(minorUnits: $0, currency: c.homeCurrency).plainText }) }
        var fields: [String: JSONValue] = [
            "id": .int(id), "trip": .string(tripName), "date": .string(date.description), "note": .string(note),
            "category": JSONValue(category), "paid_with": JSONValue(paidWith), "currency": .string(currency.code),
            "expression": .string(expression),
            "price": money(b.price), "discount": money(b.discount), "discount_spec": JSONValue(inputs.discount?.description),
            "subtotal": money(b.subtotal), "service": money(b.service), "service_spec": JSONValue(inputs.service?.description),
            "tax": money(b.tax), "tax_spec": JSONValue(inputs.tax?.description), "tax_included": .bool(b.taxIncluded),
            "tip": money(b.tip), "tip_spec": JSONValue(inputs.tip?.description), "total": money(b.total),
            "rounding": .string(inputs.rounding.rawValue), "preset": JSONValue(preset),
            "home_currency": .string(c.homeCurrency.code), "home_amount": home(c.home), "converted": .bool(c.home != nil),
            "home_discount": home(c.homeDiscount), "home_service": home(c.homeService), "home_tax": home(c.homeTax),
            "home_tip": home(c.homeTip),
            "rate": JSONValue(q?.rate), "rate_date": JSONValue(q?.date?.description), "rate_source": .string(c.source.rawValue),
            "rate_provider": JSONValue(q?.provider), "rate_fetched_at": JSONValue(q?.fetchedAt),
            "provisional": .bool(c.provisional),
            "charged": home(chargedMinor),
            "kind": .string(kind.rawValue), "refund_of": refundOf.map { .int($0) } ?? .null,
        ]
        for (i, field) in PurchaseTextFields.all.enumerated() { fields[field.key] = JSONValue(texts[i]) }
        if let sharedID { fields["shared_id"] = .string(sharedID) }
        if let refundOfSharedID { fields["refund_of_shared_id"] = .string(refundOfSharedID) }
        return .object(fields)
    }
}

extension Trip {
    public var json: JSONValue {
        .object([
            "id": .int(id), "name": .string(name), "local_currency": JSONValue(localCurrency?.code),
            "home_currency": .string(homeCurrency.code), "start": JSONValue(start?.description),
            "end": JSONValue(end?.description), "preset": JSONValue(preset), "presets": .array(presets.map { .string($0) }),
            "budget": JSONValue(budgetMinor.map { Money(minorUnits: $0, currency: homeCurrency).plainText }),
            "created_at": .string(createdAt), "closed_at": JSONValue(closedAt),
        ])
    }
}

extension TripReport {
    public var json: JSONValue {
        func money(_ v: Int64) -> JSONValue { .string(Money(minorUnits: v, currency: home).plainText) }
        func line(_ l: Line) -> JSONValue {
            var o: [String: JSONValue] = [
                "key": .string(l.key), "count": .int(Int64(l.count)), "home_amount": money(l.home),
                "unconverted": .int(Int64(l.unconverted)),
            ]
            if let original = l.original, let c = CurrencyTable.shared.lookup(l.key) {
                o["amount"] = .string(Money(minorUnits: original, currency: c).plainText)
            }
            if let paid = l.paid { o["paid"] = money(paid) }
            return .object(o)
        }
        var o: [String: JSONValue] = [
            "trip": trip.json,
            "home_currency": .string(home.code),
            "reexpressed": .bool(reexpressed),
            "member": JSONValue(member),
            "purchases": .int(Int64(purchaseCount)), "refund_count": .int(Int64(refundCount)),
            "first_date": JSONValue(firstDate?.description), "last_date": JSONValue(lastDate?.description),
            "since": JSONValue(since?.description), "until": JSONValue(until?.description),
            "totals": .object([
                "gross": money(totals.gross), "discounts": money(totals.discounts), "service": money(totals.service),
                "tax_added": money(totals.taxAdded), "tax_included": money(totals.taxIncluded), "tip": money(totals.tip),
                "refunds": money(totals.refunds), "net": money(totals.net),
            ]),
            "grouping": .string(grouping.rawValue),
            "groups": .array(groups.map(line)),
            "by_category": .array(byCategory.map(line)),
            "by_currency": .array(byCurrency.map(line)),
            "by_day": .array(byDay.map(line)),
            "days": .int(Int64(days)),
            "average_per_day": money(averagePerDay),
            "budget": budget.map { b in
                .object([
                    "amount": money(b.amount), "spent": money(b.spent), "remaining": money(b.remaining),
                    "days_left": b.daysLeft.map { .int(Int64($0)) } ?? .null,
                    "daily_allowance": b.dailyAllowance.map(money) ?? .null,
                ])
            } ?? .null,
            "provenance": .array(
                provenance.map { p in
                    .object([
                        "source": .string(p.source.rawValue), "provisional": .bool(p.provisional),
                        "label": .string(TripReport.provenanceLabel(p)), "via": JSONValue(p.via),
                        "count": .int(Int64(p.count)), "home_amount": money(p.home),
                    ])
                }),
            "provisional": .int(Int64(provisionalCount - unconvertedCount)),
            "unconverted": .array(unconverted.map(line)),
            "unconverted_count": .int(Int64(unconvertedCount)),
            "warnings": .array(warnings.map { .string($0) }),
        ]
        if !lines.isEmpty { o["lines"] = .array(lines.map(\.json)) }
        if !memberLines.isEmpty { o["member_lines"] = .array(memberLines.map(\.json)) }
        return .object(o)
    }
}

extension ManualRate {
    public var json: JSONValue {
        .object([
            "base": .string(base.code), "quote": .string(quote.code), "date": .string(date.description),
            "rate": .string(rate), "inverse": .string(inverse),
        ])
    }
}

extension RateQuote {
    public var json: JSONValue {
        .object([
            "rate": .string(rate), "date": JSONValue(date?.description), "source": .string(source.rawValue),
            "provider": JSONValue(provider), "fetched_at": JSONValue(fetchedAt), "provisional": .bool(provisional),
        ])
    }
}

extension RateLeg {
    public var json: JSONValue {
        .object([
            "from": .string(from), "to": .string(to), "rate": .string(rate), "date": JSONValue(date?.description),
            "source": .string(source.rawValue), "provider": JSONValue(provider), "fetched_at": JSONValue(fetchedAt),
            "provisional": .bool(provisional),
        ])
    }
}

extension RerateSummary {
    public func json(currencies: [String: Currency] = [:]) -> JSONValue {
        var d: [String: JSONValue] = [:]
        for (code, v) in delta {
            let c = Currency.stored(code)
            d[code] = .string(Money(minorUnits: v, currency: c).plainText)
        }
        return .object([
            "rerated": .int(Int64(changed)), "delta": .object(d),
            "remaining_provisional": .int(Int64(remainingProvisional)),
            "reasons": .object(reasons.mapValues { .string($0) }),
        ])
    }
}
