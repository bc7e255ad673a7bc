import Storage
import TripLedger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a ledger's WAL file to disk in the background, every `interval`, while a long write
/// transaction fills it (a bulk `trip import` spills hundreds of megabytes of pages there).
///
/// The commit's checkpoint must `fsync` the WAL before copying it into the database; without this
/// that flush of every spilled page waits until then, on the critical path. Only data is flushed:
/// nothing is read or written through this descriptor, and SQLite keeps no lock on the `-wal` file
/// (its locks are on the database and `-shm` files), so opening and closing another descriptor on
/// it changes nothing for SQLite. A flush that fails is ignored: the checkpoint's own `fsync` is
/// the one durability depends on.
final class WALWriteback: @unchecked Sendable {
    private let fd: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var stopped = false
    private var flushCount = 0
    private var thread: WorkerThread?

    /// Starts flushing `databasePath`'s WAL; `nil` when there is none to open or no thread to run on.
    init?(databasePath: String, intervalMilliseconds: Int = 200) {
        // The lock first: a failed init still runs `deinit`, which stops (and so locks).
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        fd = ImportPipeline.isAvailable ? open(databasePath + "-wal", O_RDONLY | O_CLOEXEC) : -1
        guard fd >= 0 else { return nil }
        let interval = intervalMilliseconds
        thread = try? WorkerThread { [self] in
            pthread_mutex_lock(lock)
            while !stopped {
                pthread_mutex_unlock(lock)
                #if canImport(Glibc)
                let flushed = fdatasync(fd) == 0
                #else
                let flushed = fsync(fd) == 0
                #endif
                pthread_mutex_lock(lock)
                if flushed { flushCount += 1 }
                if stopped { break }
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let ns = Int(now.tv_nsec) + interval * 1_000_000
                var deadline = timespec(tv_sec: now.tv_sec + ns / 1_000_000_000, tv_nsec: ns % 1_000_000_000)
                _ = pthread_cond_timedwait(wake, lock, &deadline)
            }
            pthread_mutex_unlock(lock)
        }
        if thread == nil { return nil }
    }

    /// How many flushes have succeeded: what tests observe, since a flush leaves no other trace.
    var flushes: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return flushCount
    }

    /// Stops the flushing and waits for the thread. Safe to call more than once.
    func stop() {
        pthread_mutex_lock(lock)
        let first = !stopped
        stopped = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(lock)
        guard first else { return }
        thread?.join()
        if fd >= 0 { close(fd) }
    }

    deinit {
        stop()
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        wake.deallocate()
    }
}
