#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small file helpers over POSIX, so that reading a config file needs no Foundation.
public enum TextFile {
    /// The whole file as UTF-8 text (invalid bytes replaced), or `nil` if it cannot be opened.
    public static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `path` names a folder (following symbolic links). `fopen` opens a folder for reading
    /// on Linux and reads nothing, so a config path that is a folder would silently be empty.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The process environment as a dictionary. Read once, at the command layer.
    public static func environment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
