import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a spawned process left behind: its output bytes and how it ended.
public struct SpawnResult: Sendable {
    public let stdout: [UInt8]
    public let stderr: [UInt8]
    /// The exit status, or nil when a signal ended the process.
    public let exitCode: Int32?
    /// The signal that ended the process, if one did.
    public let signal: Int32?
}

/// Runs `executable` with argument bytes (which need not be UTF-8) through `posix_spawn`, with
/// stdin, stdout and stderr on files in a private temporary folder, and waits for it.
///
/// The tests spawn thousands of processes from many threads at once; files instead of pipes mean
/// no reader threads and no chance of a full pipe blocking the child, and `posix_spawn` keeps
/// Foundation's `Process` (which crashed here under that load) out of the way.
public func spawnAndWait(
    _ executable: String, _ argv: [[UInt8]], environment: [String: String],
    stdin: [UInt8]? = nil
) throws -> SpawnResult {
    var template = Array((NSTemporaryDirectory() + "/trip-spawn-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let inPath = folder + "/stdin", outPath = folder + "/stdout", errPath = folder + "/stderr"
    if let stdin { try Data(stdin).write(to: URL(fileURLWithPath: inPath)) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

    func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (k, b) in bytes.enumerated() { p[k] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        return p
    }
    var args: [UnsafeMutablePointer<CChar>?] = [cString(Array(executable.utf8))] + argv.map(cString) + [nil]
    var env: [UnsafeMutablePointer<CChar>?] = environment.map { cString(Array("\($0.key)=\($0.value)".utf8)) } + [nil]
    defer { for p in args + env { p?.deallocate() } }

    var pid = pid_t()
    let rc = posix_spawn(&pid, executable, &actions, nil, &args, &env)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let signalled = status & 0x7F
    return SpawnResult(
        stdout: Array(try Data(contentsOf: URL(fileURLWithPath: outPath))),
        stderr: Array(try Data(contentsOf: URL(fileURLWithPath: errPath))),
        exitCode: signalled == 0 ? (status >> 8) & 0xFF : nil,
        signal: signalled == 0 ? nil : signalled)
}
