/// An ISO 4217 currency: its alphabetic code and how many minor units (decimal places) it has.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// Three capital letters, e.g. `JPY`.
    public let code: String
    /// ISO 4217 minor units: JPY 0, USD 2, KWD 3. Amounts are stored as integers of 10^-minorUnits.
    public let minorUnits: Int
    public let name: String
    /// `false` for codes ISO has withdrawn but trip still knows (euro legacy currencies).
    public let isActive: Bool

    public init(code: String, minorUnits: Int, name: String, isActive: Bool = true) {
        self.code = code
        self.minorUnits = minorUnits
        self.name = name
        self.isActive = isActive
    }

    public var description: String { code }
}

extension Currency {
    /// The currency of a code that was checked when it was written (a ledger row, a stored total).
    /// A code this build no longer knows is kept with 2 minor units rather than failing the read.
    public static func stored(_ code: String) -> Currency {
        CurrencyTable.shared.lookup(code) ?? Currency(code: code, minorUnits: 2, name: code)
    }
}
