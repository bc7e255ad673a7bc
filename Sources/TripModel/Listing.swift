import TripCore

/// What the text table of `trip list` needs before its first row: how many rows, each column's
/// width, and whether the provisional footnote applies. One aggregate query gives it, so the rows
/// themselves can be streamed and still line up exactly.
public struct ListLayout: Sendable {
    public var count: Int
    public var idWidth: Int
    public var amountWidth: Int
    public var homeWidth: Int
    public var rateWidth: Int
    public var anyProvisional: Bool

    public init(count: Int, idWidth: Int, amountWidth: Int, homeWidth: Int, rateWidth: Int, anyProvisional: Bool) {
        self.count = count
        self.idWidth = idWidth
        self.amountWidth = amountWidth
        self.homeWidth = homeWidth
        self.rateWidth = rateWidth
        self.anyProvisional = anyProvisional
    }
}
