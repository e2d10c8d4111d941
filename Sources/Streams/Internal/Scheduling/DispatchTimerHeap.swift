/// The pending entries of ``DispatchTimerEngine``, earliest deadline first, and among equal
/// deadlines in the order they were scheduled: a binary min-heap whose entries know their place
/// in it, so that a cancel removes its entry at once, in O(log n), and the heap holds only live
/// entries.
///
/// ```swift
/// var heap = DispatchTimerHeap()
/// heap.insert(entry)                 // entry.heapIndex is its place from now on
/// heap.remove(at: entry.heapIndex)   // a cancel
/// ```
struct DispatchTimerHeap {
    /// One entry with its order: its deadline and the number it was scheduled with, kept beside
    /// the entry so that comparing two does not reach into either.
    struct Slot {
        var deadline: UInt64
        var sequence: UInt64
        let entry: DispatchTimerEntry

        /// Whether `self` runs before `other`.
        func precedes(_ other: Slot) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var slots: [Slot] = []
    /// The number the next inserted entry gets.
    private var nextSequence: UInt64 = 0

    /// How many entries wait.
    var count: Int { slots.count }

    /// The earliest entry, if any.
    var first: DispatchTimerEntry? { slots.first?.entry }

    /// Adds `entry` at its deadline, after every entry already due at the same deadline.
    mutating func insert(_ entry: DispatchTimerEntry) {
        let slot = Slot(deadline: entry.deadline, sequence: nextSequence, entry: entry)
        nextSequence &+= 1
        entry.heapIndex = slots.count
        slots.append(slot)
        siftUp(from: slots.count - 1)
    }

    /// Removes and returns the earliest entry.
    mutating func removeFirst() -> DispatchTimerEntry {
        remove(at: 0)
    }

    /// Removes the entry at `index` (its `heapIndex`) and returns it.
    @discardableResult
    mutating func remove(at index: Int) -> DispatchTimerEntry {
        let removed = slots[index].entry
        removed.heapIndex = -1
        let last = slots.removeLast()
        if index < slots.count {
            slots[index] = last
            last.entry.heapIndex = index
            if index > 0 && last.precedes(slots[(index - 1) / 2]) {
                siftUp(from: index)
            } else {
                siftDown(from: index)
            }
        }
        return removed
    }

    private mutating func siftUp(from start: Int) {
        var index = start
        let moving = slots[index]
        while index > 0 {
            let parent = (index - 1) / 2
            guard moving.precedes(slots[parent]) else { break }
            slots[index] = slots[parent]
            slots[index].entry.heapIndex = index
            index = parent
        }
        if index != start {
            slots[index] = moving
            moving.entry.heapIndex = index
        }
    }

    private mutating func siftDown(from start: Int) {
        var index = start
        let moving = slots[index]
        let count = slots.count
        while true {
            let left = 2 * index + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && slots[right].precedes(slots[left]) ? right : left
            guard slots[child].precedes(moving) else { break }
            slots[index] = slots[child]
            slots[index].entry.heapIndex = index
            index = child
        }
        if index != start {
            slots[index] = moving
            moving.entry.heapIndex = index
        }
    }
}
