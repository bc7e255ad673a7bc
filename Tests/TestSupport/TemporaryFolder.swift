import Foundation

/// A fresh folder under the system temp directory, removed when the value is deinitialised
/// (kept with `TRIP_KEEP_TEMP=1`, to look into the ledgers of a failing seed).
public final class TemporaryFolder: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "trip-test") {
        var template = Array("\(NSTemporaryDirectory())/\(label)-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: dir!)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        if ProcessInfo.processInfo.environment["TRIP_KEEP_TEMP"] != "1" { try? FileManager.default.removeItem(atPath: path) }
    }
}
