import ArgumentParser

/// `trip add` read without argument-parser, for the plain command lines a traveller types
/// (`trip add 1200 JPY ramen --trip Japan --tip 10%`): argument-parser reflects over the command's
/// twenty-two properties, twice, and decodes them through `Decodable`, which is the largest single
/// part of `trip add`'s start (`TRIP_TRACE=1`). This reads the same options into the same `Add`,
/// setting every property, and gives up (`nil`) on anything it does not read exactly as
/// argument-parser would: unknown options, short ones joined to their value, a value starting
/// with `-`, an option given twice, `--NAME=` with nothing after it, `--`, help, or a missing
/// amount. Then argument-parser parses the whole line as before, so every usage error and help
/// text is its own. `AddFastPathTests` proves both give the same `Add` for every option, so an
/// option added to `Add` without a line here fails that test.
enum AddFastPath {
    /// The long options that take one value, by name, and where each goes. A setter, not a key
    /// path: writing through a key path reads the property first, and an unset one cannot be read.
    private static let values: [String: @Sendable (inout TripCommand.Add, String?) -> Void] = [
        "note": { $0.purchase.note = $1 }, "date": { $0.purchase.date = $1 }, "category": { $0.purchase.category = $1 },
        "discount": { $0.purchase.discount = $1 }, "service": { $0.purchase.service = $1 }, "tax": { $0.purchase.tax = $1 },
        "tip": { $0.purchase.tip = $1 }, "preset": { $0.purchase.preset = $1 }, "rounding": { $0.purchase.rounding = $1 },
        "rate": { $0.purchase.rate = $1 }, "charged": { $0.purchase.charged = $1 }, "paid-with": { $0.purchase.paidWith = $1 },
        "trip": { $0.purchase.trip = $1 }, "paid-by": { $0.purchase.paidBy = $1 }, "split": { $0.purchase.split = $1 },
        "items": { $0.purchase.items = $1 }, "db": { $0.global.db = $1 }, "config": { $0.global.config = $1 },
        "format": { $0.global.formatName = $1 ?? "text" },
    ]

    /// The flags, which take no value.
    static let flagNames: Set<String> = ["refund", "tax-included", "no-tax-included"]

    /// The short options, each standing for a long one (`-t Japan`, never `-tJapan`).
    static let shortNames: [String: String] = ["-n": "note", "-d": "date", "-c": "category", "-t": "trip", "-f": "db", "-O": "format"]

    /// The long options that take one value, without their `--`.
    static var optionNames: [String] { Array(values.keys) }

    /// `Add` for `arguments` (the words after `add`), or `nil` to let argument-parser read them.
    static func parse(_ arguments: ArraySlice<String>) -> TripCommand.Add? {
        var given: [String: String] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let word = arguments[i]
            i += 1
            // A lone `-` is a word to argument-parser too: `trip add 1200 - 300`.
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            var name = word.dropFirst(2)
            var value: Substring?
            if !word.hasPrefix("--") {
                guard word.utf8.count == 2, let long = shortNames[word] else { return nil }
                name = long[...]
            } else if let eq = name.firstIndex(of: "=") {
                value = name[name.index(after: eq)...]
                name = name[..<eq]
            }
            let key = String(name)
            if flagNames.contains(key) {
                guard value == nil, flags.insert(key).inserted else { return nil }
                continue
            }
            guard values[key] != nil, given[key] == nil else { return nil }
            if value == nil {
                guard i < arguments.endIndex else { return nil }
                value = arguments[i][...]
                i += 1
            }
            // argument-parser reads `--note=` as a missing value.
            guard let value, !value.hasPrefix("-"), !value.isEmpty || !word.hasSuffix("=") else { return nil }
            given[key] = String(value)
        }
        guard let amount = positionals.first, !(flags.contains("tax-included") && flags.contains("no-tax-included")) else { return nil }
        var add = TripCommand.Add()
        add.purchase = PurchaseOptions()
        add.global = GlobalOptions()
        add.amount = amount
        add.words = Array(positionals.dropFirst())
        add.refund = flags.contains("refund")
        add.purchase.taxIncluded = flags.contains("tax-included") ? true : flags.contains("no-tax-included") ? false : nil
        for (key, set) in values { set(&add, given[key]) }
        // argument-parser validates each option group as it decodes it; a line that fails is
        // parsed again by it, so that the error reads as it always has.
        do {
            try add.purchase.validate()
            try add.global.validate()
        } catch {
            return nil
        }
        return add
    }
}
