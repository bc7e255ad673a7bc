/// A version of a travelling row: the hybrid logical clock and the device of the write that made
/// it.
///
/// Which of two versions wins is the one rule every device applies to every row, and the server
/// side applies when it decides what the log holds (`ChangeLog`): the later clock, then, for two
/// writes at the same clock, the larger device id. A version wins whole, never field by field.
public struct Version: Comparable, Sendable {
    public let hlc: Int64
    public let device: String

    public init(hlc: Int64, device: String) {
        self.hlc = hlc
        self.device = device
    }

    public static func < (a: Version, b: Version) -> Bool {
        a.hlc != b.hlc ? a.hlc < b.hlc : a.device < b.device
    }
}
