import Foundation

/// A release `trip` built by a test from a copy of the package's sources, in a scratch folder of
/// the package's `.build`: what `OldRelease` (an older commit) and `ScratchBuild` (this tree with a
/// patch) share.
///
/// The dependencies resolve from the package's own `.build` (copied into the scratch folder), so
/// no network is needed. Suites run in parallel and may ask for the same build at once: each build
/// holds a lock of its own (two builds in one scratch folder crash the compiler).
public enum ReleaseBuild {
    /// The package's root: this file is `Tests/TestSupport/ReleaseBuild.swift`.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `body` run holding the lock file `path` (`flock`), made when missing; the lock is let go
    /// when `body` returns or throws.
    static func holding<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReleaseBuildError(message: "cannot open the lock \(path): errno \(errno)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ReleaseBuildError(message: "cannot lock \(path): errno \(errno)") }
        }
        return try body()
    }

    /// The shell lines that give the scratch folder `build` the package's resolved dependencies.
    static func dependencies(into build: String) -> String {
        """
        mkdir -p '\(build)'
        for d in repositories checkouts; do
          [ -d '\(packageRoot)/.build/'$d ] && [ ! -d '\(build)/'$d ] && cp -R '\(packageRoot)/.build/'$d '\(build)/'$d
        done
        [ -f '\(packageRoot)/.build/workspace-state.json' ] && cp '\(packageRoot)/.build/workspace-state.json' '\(build)/' || true
        """
    }

    /// Builds `trip` in release from the package at `source`, in the scratch folder `build` (kept
    /// by the caller: a second build there is incremental), and copies it to `binary`. The caller
    /// holds the build's lock (`holding`).
    static func trip(source: String, build: String, to binary: String) throws {
        let script = """
            set -e
            \(dependencies(into: build))
            cd '\(source)'
            # The whole log to a file: a failed build must fail here, not after a pipe's `tail`.
            if ! swift build -c release --product trip --scratch-path '\(build)' --disable-automatic-resolution \
                > '\(build)/build.log' 2>&1; then
              tail -40 '\(build)/build.log'
              exit 1
            fi
            rm -f '\(binary).partial'
            cp "$(swift build -c release --product trip --scratch-path '\(build)' --show-bin-path)/trip" '\(binary).partial'
            mv '\(binary).partial' '\(binary)'
            """
        let r = try shell(script)
        guard r.exitCode == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            throw ReleaseBuildError(message: "swift build in \(source) failed:\n\(r.output)")
        }
    }

    /// Runs `script` with `/bin/sh`, the toolchain on its `PATH`: its exit code and its stdout and
    /// stderr together.
    static func shell(
        _ script: String, environment extra: [String: String] = [:], without removed: [String] = []
    ) throws -> (exitCode: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin") + ":/opt/swift/usr/bin:/usr/bin:/bin"
        environment.merge(extra) { $1 }
        for name in removed { environment[name] = nil }
        let r = try spawnAndWait("/bin/sh", [Array("-c".utf8), Array(script.utf8)], environment: environment)
        return (r.exitCode ?? 128 + (r.signal ?? 0), String(decoding: r.stdout + r.stderr, as: UTF8.self))
    }
}

public struct ReleaseBuildError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
