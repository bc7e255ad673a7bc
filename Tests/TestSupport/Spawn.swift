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

    let pid = try spawn(
        executable, argv, environment: environment, stdin: stdin == nil ? "/dev/null" : inPath, stdout: outPath, stderr: errPath)
    let end = waitForExit(pid)!
    return SpawnResult(
        stdout: Array(try Data(contentsOf: URL(fileURLWithPath: outPath))),
        stderr: Array(try Data(contentsOf: URL(fileURLWithPath: errPath))), exitCode: end.exitCode, signal: end.signal)
}

/// Starts `executable` with `argv` (after its own name) and exactly `environment`, its standard
/// streams opened from and to the files named and no other descriptor open; returns its pid without
/// waiting.
public func spawn(
    _ executable: String, _ argv: [[UInt8]], environment: [String: String], stdin: String, stdout: String, stderr: String
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Nothing else of the test process's: a descriptor opened without close-on-exec (by a library,
    // or the build lock's that `flock` hands to `swift test`) would otherwise stay open in every
    // `trip`, `bash` or `psql` a test starts, and in their children (`SpawnFileDescriptorTests`).
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if canImport(Darwin)
    flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
    closeInheritedDescriptors(&actions)
    #endif

    func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (k, b) in bytes.enumerated() { p[k] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        return p
    }
    var args: [UnsafeMutablePointer<CChar>?] = [cString(Array(executable.utf8))] + argv.map(cString) + [nil]
    var env: [UnsafeMutablePointer<CChar>?] = environment.map { cString(Array("\($0.key)=\($0.value)".utf8)) } + [nil]
    defer { for p in args + env { p?.deallocate() } }

    // The child starts as from a shell: no signal blocked, every one at its default. Without this
    // it inherits the spawning thread's mask, and the test threads (libdispatch workers) block
    // SIGTERM, SIGINT, SIGCHLD and more (`SpawnSignalStateTests`).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(flags))

    var pid = pid_t()
    let rc = posix_spawn(&pid, executable, &actions, &attributes, &args, &env)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    return pid
}

#if !canImport(Darwin)
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up when the tests
/// run so that they still build against an older glibc.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Adds to `actions` the closing of every descriptor above 2. Without `addclosefrom_np`, closes
/// each one open in this process now (listed in `/proc/self/fd`); glibc ignores a close of one
/// that is no longer open by then, and one opened by another thread meanwhile may stay open.
private func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    if let addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
    guard let folder = opendir("/proc/self/fd") else { return }
    var open: [Int32] = []
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name), fd > 2 { open.append(fd) }
    }
    closedir(folder)
    for fd in open { posix_spawn_file_actions_addclose(&actions, fd) }
}
#endif

/// Reaps child `pid` (waiting for it unless `block` is false: then nil while it runs). `signal` is
/// set when a signal ended it, `exitCode` otherwise.
public func waitForExit(_ pid: pid_t, block: Bool = true) -> (exitCode: Int32?, signal: Int32?)? {
    var status: Int32 = 0
    var got: pid_t
    repeat { got = waitpid(pid, &status, block ? 0 : WNOHANG) } while got == -1 && errno == EINTR
    if got == 0 { return nil }
    let signalled = status & 0x7F
    return (signalled == 0 ? (status >> 8) & 0xFF : nil, signalled == 0 ? nil : signalled)
}
