/// `--split` and `--items` as typed, parsed and checked against a trip's members.
///
/// The result of `resolve` is one weight per participant, in the order the members joined; the
/// amounts themselves are divided later by `Allocation.largestRemainder`, so a purchase stores
/// weights and every share adds up exactly to whatever it divides (its total, its home amount).
public enum SplitSpec: Equatable, Sendable {
    /// Equally among every member of the trip at the time the purchase is logged.
    case all
    /// Equally among the named members.
    case equal([String])
    /// By shares, plain numbers: `ana=2,ben=1` (decimals allowed).
    case shares([(String, Rational)])
    /// By percentages adding up to exactly 100: `ana=60%,ben=40%`.
    case percentages([(String, Rational)])
    /// An itemised bill: each name's portions of the price (`rest` at most once), adding up to the
    /// price. Discount, service, tax and tip follow each person's items in proportion.
    case items([(String, String)])

    public static func == (lhs: SplitSpec, rhs: SplitSpec) -> Bool {
        switch (lhs, rhs) {
        case (.all, .all): true
        case let (.equal(a), .equal(b)): a == b
        case let (.shares(a), .shares(b)), let (.percentages(a), .percentages(b)):
            a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case let (.items(a), .items(b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// Parses `--split`: `all`, `ana,ben`, `ana=2,ben=1` or `ana=60%,ben=40%`.
    public static func parse(split text: String) throws(TripError) -> SplitSpec {
        let t = text.trimmingSpaces
        if t.lowercased() == "all" { return .all }
        let parts = try pieces(t, field: "split")
        if parts.allSatisfy({ $0.value == nil }) { return .equal(parts.map(\.name)) }
        guard parts.allSatisfy({ $0.value != nil }) else {
            throw .badAmount(field: "split", value: text, reason: "mixes names with and without =; give every name a share or none")
        }
        let percent = parts.allSatisfy { $0.value!.hasSuffix("%") }
        guard percent || parts.allSatisfy({ !$0.value!.hasSuffix("%") }) else {
            throw .badAmount(field: "split", value: text, reason: "mixes shares and percentages; use one kind")
        }
        var weights: [(String, Rational)] = []
        for p in parts {
            let number = percent ? String(p.value!.dropLast()).trimmingSpaces : p.value!
            guard let w = Rational(decimalText: number), !number.hasPrefix("-"), !number.hasPrefix("+") else {
                throw .badAmount(
                    field: "split", value: "\(p.name)=\(p.value!)",
                    reason: "is not a share; write a number of 0 or more (2, 1.5) or a percentage (60%)")
            }
            weights.append((p.name, w))
        }
        if percent {
            var sum = Rational.zero
            for (_, w) in weights { sum = (try? sum + w) ?? sum }
            guard sum == Rational(100) else {
                throw .badAmount(
                    field: "split", value: text,
                    reason: "adds up to \(sum.exactDecimalText() ?? sum.description)%, not 100%")
            }
        } else if !weights.contains(where: { !$0.1.isZero }) {
            throw .badAmount(field: "split", value: text, reason: "gives nobody a share")
        }
        return percent ? .percentages(weights) : .shares(weights)
    }

    /// Parses `--items ana=12.50,ben=8,ana=3,ben=rest`: amounts are kept as typed, read in the
    /// purchase's currency by `resolve`.
    public static func parse(items text: String) throws(TripError) -> SplitSpec {
        .items(
            try namedAmounts(
                try pieces(text.trimmingSpaces, field: "items", namesMayRepeat: true), text: text,
                field: "items", example: "item"))
    }

    /// One weight per member (in `members`' order, which is join order); members not taking part
    /// have weight 0. `price` is the purchase's price before adjustments (for `--items`).
    public func resolve(
        members: [String], price: Int64, currency: Currency,
        rounding: RoundingMode
    ) throws(TripError) -> [Rational] {
        func index(_ name: String, _ field: String) throws(TripError) -> Int {
            guard let i = SplitSpec.memberIndex(name, in: members) else {
                throw .badAmount(
                    field: field, value: name,
                    reason: "is not a member of this trip; members: \(members.joined(separator: ", "))")
            }
            return i
        }
        var weights = [Rational](repeating: .zero, count: members.count)
        switch self {
        case .all:
            weights = [Rational](repeating: .one, count: members.count)
        case .equal(let names):
            for n in names { weights[try index(n, "split")] = .one }
        case .shares(let named), .percentages(let named):
            for (n, w) in named { weights[try index(n, "split")] = w }
        case .items(let named):
            let portions = try SplitSpec.amounts(
                named, members: members, adding: price, of: "the price", field: "items",
                currency: currency, rounding: rounding)
            weights = portions.map { Rational($0) }
        }
        guard weights.contains(where: { !$0.isZero }) else {
            throw .badAmount(field: "split", value: "", reason: "gives nobody a share")
        }
        return weights
    }

    /// `NAME=AMOUNT,…` with at most one `NAME=rest`, per member (a name may come back: its amounts
    /// add up), so that they add up to exactly `target`; `rest` takes what the others leave.
    static func amounts(
        _ named: [(String, String)], members: [String], adding target: Int64, of what: String,
        field: String, currency: Currency, rounding: RoundingMode
    ) throws(TripError) -> [Int64] {
        var out = [Int64](repeating: 0, count: members.count)
        var restIndex: Int?
        var sum: Int64 = 0
        for (name, value) in named {
            guard let i = memberIndex(name, in: members) else {
                throw .badAmount(
                    field: field, value: name,
                    reason: "is not a member of this trip; members: \(members.joined(separator: ", "))")
            }
            if value.lowercased() == "rest" { restIndex = i; continue }
            let amount = try AmountExpression.evaluate(
                value, field: field, minorUnits: currency.minorUnits, rounding: rounding, currencyCode: currency.code)
            out[i] += amount
            sum += amount
        }
        let goal = Money(minorUnits: target, currency: currency).plainText
        let given = Money(minorUnits: sum, currency: currency).plainText
        // The message quotes what was typed, and says what it came to.
        let typed = named.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        if let r = restIndex {
            guard sum <= target else {
                throw .badAmount(
                    field: field, value: typed, reason: "adds up to \(given), more than \(what) \(goal); nothing is left for rest")
            }
            out[r] += target - sum
        } else if sum != target {
            throw .badAmount(
                field: field, value: typed, reason: "adds up to \(given), not \(what) \(goal); add what is missing or one NAME=rest")
        }
        return out
    }

    /// Members are matched by name, case-insensitively.
    public static func memberIndex(_ name: String, in members: [String]) -> Int? {
        let key = name.lowercased()
        return members.firstIndex { $0.lowercased() == key }
    }

    struct Piece {
        let name: String
        let value: String?
    }

    /// `NAME=AMOUNT` for every piece, `rest` at most once: the grammar `--items` and `--paid-by` share.
    static func namedAmounts(
        _ parts: [Piece], text: String, field: String,
        example: String
    ) throws(TripError) -> [(String, String)] {
        if let k = parts.firstIndex(where: { $0.value == nil }) {
            // `ana=1,200`: the comma that groups thousands split the amount into an entry "200".
            let digits = !parts[k].name.isEmpty && parts[k].name.allSatisfy { $0.isASCII && $0.isNumber }
            if k > 0, digits, let before = parts[k - 1].value, before.last?.isNumber == true {
                throw .badAmount(
                    field: field, value: text,
                    reason: "has \(quoted(parts[k].name)) with no NAME=: a comma separates entries, so amounts cannot group "
                        + "thousands with it; type \(parts[k - 1].name)=\(before)\(parts[k].name)")
            }
            throw .badAmount(field: field, value: text, reason: "needs NAME=AMOUNT for every \(example), e.g. ana=30,ben=rest")
        }
        guard parts.filter({ $0.value!.lowercased() == "rest" }).count <= 1 else {
            throw .badAmount(field: field, value: text, reason: "has rest more than once")
        }
        return parts.map { ($0.name, $0.value!) }
    }

    static func pieces(_ text: String, field: String, namesMayRepeat: Bool = false) throws(TripError) -> [Piece] {
        var out: [Piece] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = String(raw).trimmingSpaces
            guard !item.isEmpty else { throw .badAmount(field: field, value: text, reason: "has an empty entry") }
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).trimmingSpaces
            guard !name.isEmpty else { throw .badAmount(field: field, value: item, reason: "has no member name") }
            let value = pair.count > 1 ? String(pair[1]).trimmingSpaces : nil
            if value?.isEmpty == true { throw .badAmount(field: field, value: item, reason: "has no value after =") }
            if !namesMayRepeat, out.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw .badAmount(field: field, value: name, reason: "is named twice")
            }
            out.append(Piece(name: name, value: value))
        }
        return out
    }
}

/// `--paid-by NAME` or `--paid-by ana=30,ben=rest`: who paid how much of the total.
public enum PayerSpec: Equatable, Sendable {
    case one(String)
    case amounts([(String, String)])

    public static func == (lhs: PayerSpec, rhs: PayerSpec) -> Bool {
        switch (lhs, rhs) {
        case let (.one(a), .one(b)): a == b
        case let (.amounts(a), .amounts(b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// The payers named, in the order given.
    public var names: [String] {
        switch self {
        case .one(let name): [name]
        case .amounts(let named): named.map(\.0)
        }
    }

    public static func parse(_ text: String) throws(TripError) -> PayerSpec {
        let parts = try SplitSpec.pieces(text.trimmingSpaces, field: "paid-by")
        if parts.count == 1, parts[0].value == nil { return .one(parts[0].name) }
        return .amounts(try SplitSpec.namedAmounts(parts, text: text, field: "paid-by", example: "payer"))
    }

    /// What each member paid of `total`, in minor units, in `members`' order; they add up to `total`.
    public func resolve(
        members: [String], total: Int64, currency: Currency,
        rounding: RoundingMode
    ) throws(TripError) -> [Int64] {
        var paid = [Int64](repeating: 0, count: members.count)
        func index(_ name: String) throws(TripError) -> Int {
            guard let i = SplitSpec.memberIndex(name, in: members) else {
                throw .badAmount(
                    field: "paid-by", value: name,
                    reason: "is not a member of this trip; members: \(members.joined(separator: ", "))")
            }
            return i
        }
        switch self {
        case .one(let name):
            paid[try index(name)] = total
        case .amounts(let named):
            paid = try SplitSpec.amounts(
                named, members: members, adding: total, of: "the total", field: "paid-by",
                currency: currency, rounding: rounding)
        }
        return paid
    }
}
