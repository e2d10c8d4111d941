import Dispatch
import Streams
import Synchronization
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
    @Test func cancelRunsTheActionOnce() {
        let count = Atomic<Int>(0)
        let cancellable = AnyCancellable { count.add(1, ordering: .relaxed) }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func deinitCancels() {
        let count = Atomic<Int>(0)
        do {
            let cancellable = AnyCancellable { count.add(1, ordering: .relaxed) }
            _ = cancellable
        }
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func cancelAfterCancelDoesNotRunOnDeinit() {
        let count = Atomic<Int>(0)
        do {
            let cancellable = AnyCancellable { count.add(1, ordering: .relaxed) }
            cancellable.cancel()
        }
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func concurrentCancelsRunTheActionOnce() {
        for _ in 0..<100 {
            let count = Atomic<Int>(0)
            let cancellable = AnyCancellable { count.add(1, ordering: .relaxed) }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in cancellable.cancel() }
            #expect(count.load(ordering: .relaxed) == 1)
        }
    }

    @Test func wrapsACancellable() {
        final class Flag: Cancellable, @unchecked Sendable {
            var cancelled = 0
            func cancel() { cancelled += 1 }
        }
        let flag = Flag()
        AnyCancellable(flag).cancel()
        #expect(flag.cancelled == 1)
    }

    @Test func storeInSetAndArray() {
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        let count = Atomic<Int>(0)
        AnyCancellable { count.add(1, ordering: .relaxed) }.store(in: &set)
        AnyCancellable { count.add(1, ordering: .relaxed) }.store(in: &array)
        #expect(set.count == 1)
        #expect(array.count == 1)
        #expect(count.load(ordering: .relaxed) == 0)
        set.removeAll()
        array.removeAll()
        #expect(count.load(ordering: .relaxed) == 2)
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        #expect(Set([a, a, b]).count == 2)
    }

    @Test func releasesTheActionOnCancel() {
        weak var weakToken: Tracked?
        let cancellable: AnyCancellable
        do {
            let token = Tracked()
            weakToken = token
            cancellable = AnyCancellable { _ = token }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }
}
