import Streams

/// A first-in-first-out queue of at most `limit` elements: appending to a full queue drops its
/// oldest element. It is a ring over a growing array, so appending and removing the oldest
/// element cost O(1) (appending amortised), and a removed element is released at once.
///
/// ``ReplaySubject`` keeps the values it replays in one, and each of its subscriptions keeps
/// the values its subscriber has not asked for yet in another.
@usableFromInline
struct ReplayBuffer<Element> {
    /// The most elements kept.
    @usableFromInline
    let limit: Int
    /// The ring; empty slots are nil.
    @usableFromInline
    var slots: ContiguousArray<Element?> = []
    /// The slot of the oldest element.
    @usableFromInline
    var head = 0
    /// How many elements are kept.
    @usableFromInline
    var count = 0

    /// An empty queue keeping at most `limit` elements (zero keeps none).
    @inlinable
    init(limit: Int) {
        self.limit = limit
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Adds `element` after the others; when that makes one too many, the oldest is dropped.
    @inlinable
    mutating func append(_ element: Element) {
        guard limit > 0 else { return }
        if count == limit {
            slots[head] = element
            head = (head + 1) % slots.count
            return
        }
        if count == slots.count {
            grow()
        }
        slots[(head + count) % slots.count] = element
        count += 1
    }

    /// Removes and returns the oldest element; nil when there is none.
    @inlinable
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) % slots.count
        count -= 1
        return element
    }

    /// Doubles the ring (up to `limit`), moving the elements to its start, in order.
    @inlinable
    mutating func grow() {
        let capacity = Swift.min(limit, Swift.max(8, slots.count * 2))
        var grown = ContiguousArray<Element?>(repeating: nil, count: capacity)
        for index in 0..<count {
            grown[index] = slots[(head + index) % slots.count]
        }
        slots = grown
        head = 0
    }
}
