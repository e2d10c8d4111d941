import Dispatch
import Foundation
import Streams
import Synchronization

/// How many iterations a stress case runs: the full count normally, a tenth under
/// ThreadSanitizer (built with `-DSTREAMS_TSAN`), which runs threaded code five to fifteen times
/// slower; every case stays within a few seconds on two busy cores either way.
func scaled(_ count: Int) -> Int {
    #if STREAMS_TSAN
    max(1, count / 10)
    #else
    count
    #endif
}

/// Runs `body(0)` ... `body(count - 1)` each on a thread of its own, all at once, and returns
/// when all have returned. (`DispatchQueue.concurrentPerform` would run no more of them at a time
/// than there are cores.)
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Waits until `condition` holds: yields the processor at first, then naps in short steps.
///
/// The naps are not timing: nothing here measures or bounds time. They keep a wait from
/// starving the work it waits for. A test runs on a thread of the default dispatch pool, which on
/// a 2-core machine has two; libdispatch adds a thread for queued work only while a thread of the
/// pool is not runnable, and a thread that only yields always is. Two tests spinning at once
/// then left the queue work both waited for without a thread, and the run hung.
func spin(until condition: () -> Bool) {
    var yields = 0
    while !condition() {
        if yields < 1_000 {
            sched_yield()
            yields += 1
        } else {
            usleep(50)
        }
    }
}

/// One atomic integer in an object, so that several fit in an array.
final class AtomicInt: Sendable {
    private let atomic: Atomic<Int>

    init(_ value: Int = 0) { atomic = Atomic(value) }

    func load() -> Int { atomic.load(ordering: .sequentiallyConsistent) }
    func store(_ value: Int) { atomic.store(value, ordering: .sequentiallyConsistent) }
    func exchange(_ value: Int) -> Int { atomic.exchange(value, ordering: .sequentiallyConsistent) }
    func add(_ value: Int) { atomic.add(value, ordering: .sequentiallyConsistent) }
}

/// A value that says which sender sent it and its position in that sender's sequence.
func tag(sender: Int, index: Int) -> Int { sender << 32 | index }
func sender(of value: Int) -> Int { value >> 32 }
func index(of value: Int) -> Int { value & 0xFFFF_FFFF }

/// Checks what one subscriber received from several senders: every sender's values arrive
/// exactly once and in the order sent (each is the one after the previous; with
/// `joiningLate`, the first one may be any), and the subscriber is never entered by two
/// threads at once. Atomics only, so that a broken serialisation shows
/// up as a failed count rather than as undefined behaviour.
final class DeliveryChecker: Sendable {
    private let next: [AtomicInt]
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)
    private let misorderedCount = Atomic<Int>(0)
    private let deliveredCount = Atomic<Int>(0)

    init(senders: Int, joiningLate: Bool = false) {
        next = (0..<senders).map { _ in AtomicInt(joiningLate ? -1 : 0) }
    }

    /// Records `value`; `body` runs inside the checked region.
    func receive(_ value: Int, _ body: () -> Void = {}) {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        let expected = next[sender(of: value)].exchange(index(of: value) + 1)
        if expected != index(of: value) && expected != -1 {
            misorderedCount.add(1, ordering: .relaxed)
        }
        deliveredCount.add(1, ordering: .relaxed)
        body()
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Values delivered.
    var delivered: Int { deliveredCount.load(ordering: .acquiring) }
    /// Values that were not the next one of their sender (lost, duplicated or reordered).
    var misordered: Int { misorderedCount.load(ordering: .acquiring) }
    /// Deliveries that began while another was still running.
    var overlaps: Int { overlapCount.load(ordering: .acquiring) }
    /// The index of the next value expected from `sender`: one past the newest that arrived.
    func count(from sender: Int) -> Int { next[sender].load() }
}

/// An object a test watches through a weak reference, to check that a subscription lets go of
/// what its closures capture.
final class Witness: Sendable {}

/// A weak reference that may cross threads.
struct WeakWitness: @unchecked Sendable {
    weak var object: Witness?
}

/// A mutable box shared between threads whose accesses the test orders itself (through joins,
/// locks or serial deliveries the library guarantees).
final class Shared<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
