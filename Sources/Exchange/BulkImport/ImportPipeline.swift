import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rows read, validated and keyed, ready to insert: each row's `PurchaseRow.insertColumns` values
/// followed by its import key, `width` values per row, rows in file order.
struct ParsedBatch {
    static let width = PurchaseRow.columnCount + 1
    var values = PackedValues()
    var keys: [UInt64] = []
}

/// What reading the whole file found: its data rows and the trips they went into.
struct ParseSummary {
    var rows = 0
    /// In order of first use.
    var trips: [String] = []
    var tripIDs: Set<Int64> = []
    /// Splits, members and transfers, stored after the purchases (see `GroupImport`).
    var group = GroupImport()
    /// Each row's file id and each refund's `refund_of`, linked after the purchases (see `RefundLinks`).
    var links = RefundLinks()
    /// Rows the export format's fast path read.
    var fastRows = 0
}

/// `trip import` on two cores: a worker thread reads, parses and validates the CSV rows (pure
/// computation: it never touches the database) and hands them over in batches through a small
/// bounded queue to the calling thread, which owns the SQLite connection and inserts them.
///
/// Atomicity is unchanged: the caller's transaction is committed only if both sides finish. A
/// parse error stops the reader, is thrown on the calling thread (naming row, column and value as
/// before) and the caller rolls back; an insert error stops the worker at its next batch.
enum ImportPipeline {
    /// Batches that may wait in the queue: enough to smooth out uneven rows (the two threads now
    /// take about as long per row), few enough that memory stays flat (at most 16 × `rowsPerBatch`
    /// rows in flight, whatever the file's size).
    static let queueDepth = 16
    static let rowsPerBatch = 256

    /// Whether rows can be parsed on a second thread on this platform.
    static var isAvailable: Bool {
        #if canImport(Glibc)
        true
        #else
        false
        #endif
    }

    /// Runs `produce` on a new thread, which calls its argument with each batch (`false` back:
    /// stop, the consumer failed), and `consume` on this thread for each batch in order. Returns
    /// what `produce` returned; throws the consumer's error, else the producer's.
    static func run(
        produce: @escaping (_ deliver: (ParsedBatch) -> Bool) throws -> ParseSummary,
        consume: (ParsedBatch) throws -> Void
    ) throws -> ParseSummary {
        let queue = Handoff<ParsedBatch>(capacity: queueDepth)
        let outcome = Outcome()
        let worker = try WorkerThread {
            do {
                outcome.summary = try produce { queue.put($0) }
                queue.close()
            } catch {
                outcome.error = error
                queue.cancel()
            }
        }
        var failure: (any Error)?
        do {
            while let batch = queue.take() { try consume(batch) }
        } catch {
            failure = error
            queue.cancel()
        }
        worker.join()
        if let failure { throw failure }
        if let error = outcome.error { throw error }
        guard let summary = outcome.summary else {
            throw TripError.badText(field: "import", reason: "the reading thread stopped without a result")
        }
        return summary
    }

    /// The producer's result, written by the worker and read after `join` (which orders the two).
    private final class Outcome: @unchecked Sendable {
        var summary: ParseSummary?
        var error: (any Error)?
    }
}

/// A first-in first-out queue of at most `capacity` elements between one producer thread and one
/// consumer thread: `put` waits while it is full, `take` while it is empty.
final class Handoff<Element>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private var items: [Element] = []
    private var head = 0
    /// The producer is done: `take` drains what is left, then returns `nil`.
    private var closed = false
    /// Either side gave up: `put` returns `false` and `take` returns `nil` at once.
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    /// Appends `item`, waiting for room; `false` (item dropped) once the queue is cancelled.
    func put(_ item: Element) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while !cancelled && items.count - head >= capacity { pthread_cond_wait(changed, lock) }
        if cancelled { return false }
        if head > 0 && head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        items.append(item)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The oldest item, waiting for one; `nil` when closed and drained, or cancelled.
    func take() -> Element? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while !cancelled && !closed && head == items.count { pthread_cond_wait(changed, lock) }
        if cancelled || head == items.count { return nil }
        let item = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        pthread_cond_broadcast(changed)
        return item
    }

    func close() { update { closed = true } }

    func cancel() {
        update {
            cancelled = true; items.removeAll(); head = 0
        }
    }

    private func update(_ body: () -> Void) {
        pthread_mutex_lock(lock)
        body()
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }
}

/// One POSIX thread running a closure; `join` waits for it to end.
final class WorkerThread {
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    #if canImport(Glibc)
    private var thread = pthread_t()
    private var joined = false

    init(_ body: @escaping () -> Void) throws {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw TripError.badText(field: "import", reason: "cannot start a thread: \(String(cString: strerror(rc)))")
        }
    }

    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    deinit { join() }
    #else
    init(_ body: @escaping () -> Void) throws { body() }
    func join() {}
    #endif
}
