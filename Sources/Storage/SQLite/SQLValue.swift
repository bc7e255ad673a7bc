/// A value bound to a statement parameter. SQLite's REAL is deliberately absent: money is INTEGER
/// minor units, rates are exact decimal TEXT.
public enum SQLValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    case null
    case integer(Int64)
    case text(String)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }

    public init(_ v: String?) { self = v.map { .text($0) } ?? .null }
    public init(_ v: Int64?) { self = v.map { .integer($0) } ?? .null }
    public init(_ v: Int) { self = .integer(Int64(v)) }
    public init(_ v: Bool) { self = .integer(v ? 1 : 0) }
}
