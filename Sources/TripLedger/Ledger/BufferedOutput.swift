import Rendering
import Storage
import TripCore
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small write buffer over a file descriptor, so an export costs one `write(2)` per 64 KiB
/// rather than one per line, in constant memory.
///
/// A failed write (disk full, a closed pipe with SIGPIPE ignored) is a `TripError.storage` that
/// names the error; nothing is retried except an interrupted or partial write.
public final class BufferedOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(fileDescriptor fd: Int32, capacity: Int = 1 << 16) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `value`'s JSON (`JSONValue.serialized`) without building a `String`.
    public func write(json value: JSONValue) throws {
        value.write(to: &buffer)
        if buffer.count >= capacity { try flush() }
    }

    /// Lets `body` append bytes straight to the buffer (no `String`), then flushes it when full.
    package func append(_ body: (inout [UInt8]) throws -> Void) throws {
        try body(&buffer)
        if buffer.count >= capacity { try flush() }
    }

    public func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.removeAll(keepingCapacity: true)
                throw TripError.storage("export: writing the output failed: \(reason)")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
