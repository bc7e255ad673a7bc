import Testing

@testable import Storage
@testable import TripLedger

/// The one rule of which version of a travelling row wins, on every device and on the server side.
@Suite("Version: which of two versions of a row wins")
struct VersionTests {
    @Test(arguments: [
        // (a's clock, a's device, b's clock, b's device, a wins)
        (Int64(200), "aaaa", Int64(100), "ffff", true),  // the later clock, whatever the devices
        (100, "ffff", 200, "aaaa", false),
        (100, "bbbb", 100, "aaaa", true),  // the same clock: the larger device id
        (100, "aaaa", 100, "bbbb", false),
        (100, "aaaa", 100, "aaaa", false),  // one version: neither wins over the other
    ])
    func theLaterClockThenTheLargerDeviceWins(aHLC: Int64, aDevice: String, bHLC: Int64, bDevice: String, aWins: Bool) {
        let a = Version(hlc: aHLC, device: aDevice), b = Version(hlc: bHLC, device: bDevice)
        #expect((a > b) == aWins)
        if aWins { #expect(b < a && !(b > a)) }
    }
}
