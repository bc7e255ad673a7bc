import Storage
import TripCore
import TripLedger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CSVReader {
    /// The bytes of `fd` up to and including its first line end, at most 64 KiB: enough to tell
    /// the export format (whose header names `home_total`) from a card statement without losing
    /// the stream for a large export, which goes on reading after them (`init(prefix:)`).
    static func firstLine(of fd: Int32) throws(TripError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < 1 << 16 - chunk.count {
            // Read a little at a time so as not to read past the line by much; the rest is kept anyway.
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TripError.badText(field: "import", reason: "header: cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if chunk[0..<n].contains(0x0A) { break }
        }
        return out
    }

    /// Everything left in `fd`: a card statement, read whole.
    static func rest(of fd: Int32) throws(TripError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TripError.badText(field: "import", reason: "header: cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}

extension [UInt8] {
    /// Whether the bytes hold `needle` (ASCII) anywhere.
    func containsASCII(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= count else { return false }
        for i in 0...(count - n.count) where self[i] == n[0] && Array(self[i..<(i + n.count)]) == n { return true }
        return false
    }
}
