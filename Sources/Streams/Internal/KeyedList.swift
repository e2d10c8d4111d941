/// Elements in the order they were added, each removable by the key it was given when added. A
/// plain value with no lock: ``SubjectCore`` keeps its subscribers' conduits and its upstream
/// subscriptions in two of these, under its lock.
///
/// Keys increase with every addition, and the slots stay sorted by key, so a removal finds its
/// slot by binary search: O(log n) comparisons and no hashing. A removed element leaves an empty
/// slot behind (nothing shifts); once empty slots outnumber the elements, the slots are compacted
/// in place, which moves each element at most once per compaction, so a removal moves a constant
/// number of slots on average. Readers walk ``slots`` in order and skip the empty ones; a copy of
/// ``slots`` is a snapshot that later changes do not affect.
///
/// ```swift
/// var list = KeyedList<String>()
/// let first = list.append("a")
/// _ = list.append("b")
/// list.remove(first)   // "a"; list.slots now holds an empty slot and "b"
/// ```
@usableFromInline
struct KeyedList<Element> {
    /// One element under its key; `element` is nil once removed.
    @usableFromInline
    struct Slot {
        @usableFromInline
        let key: Int
        @usableFromInline
        var element: Element?

        @inlinable
        init(key: Int, element: Element) {
            self.key = key
            self.element = element
        }
    }

    /// The slots, sorted by key, empty ones included.
    @usableFromInline
    var slots: ContiguousArray<Slot> = []
    /// The key the next ``append(_:)`` gives.
    @usableFromInline
    var nextKey = 0
    /// How many slots hold an element.
    @usableFromInline
    var count = 0
    /// The work removals have cost so far, counted so that tests can check how it grows with
    /// the number of elements: the slots ``remove(_:)`` looked at to find its key...
    @usableFromInline
    var removalProbes = 0
    /// ... and the slots it moved or dropped to get rid of empty ones.
    @usableFromInline
    var removalMoves = 0

    /// Below this many slots, empty ones are left until the list empties or grows.
    @inlinable
    static var compactionThreshold: Int { 16 }

    @inlinable
    init() {}

    /// Adds `element` after every other; returns its key.
    @inlinable
    @discardableResult
    mutating func append(_ element: Element) -> Int {
        let key = nextKey
        nextKey += 1
        slots.append(Slot(key: key, element: element))
        count += 1
        return key
    }

    /// Removes and returns the element under `key`; nil if there is none (never added, or
    /// removed already).
    @inlinable
    mutating func remove(_ key: Int) -> Element? {
        var low = 0
        var high = slots.count
        while low < high {
            let middle = low + (high - low) / 2
            removalProbes += 1
            if slots[middle].key < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < slots.count, slots[low].key == key, let element = slots[low].element else { return nil }
        slots[low].element = nil
        count -= 1
        if count == 0 {
            removalMoves += slots.count
            slots.removeAll(keepingCapacity: true)
        } else if slots.count - count > count, slots.count >= Self.compactionThreshold {
            compact()
        }
        return element
    }

    /// Moves the elements to the front, in order, and drops the empty slots.
    @inlinable
    mutating func compact() {
        var kept = 0
        for index in slots.indices where slots[index].element != nil {
            if index != kept {
                slots.swapAt(kept, index)
            }
            kept += 1
        }
        removalMoves += slots.count
        slots.removeSubrange(kept...)
    }

    /// Empties the list and returns its slots; keys keep increasing.
    @inlinable
    mutating func removeAll() -> ContiguousArray<Slot> {
        count = 0
        defer { slots = [] }
        return slots
    }
}
