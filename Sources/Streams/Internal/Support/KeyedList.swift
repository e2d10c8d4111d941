/// Elements in the order they were added, each removable by the key it was given when added. A
/// plain value with no lock: ``SubjectCore`` keeps its subscribers' conduits and its upstream
/// subscriptions in two of these, under its lock.
///
/// Keys increase with every addition and are kept in ``keys``, in the order of ``elements``, so
/// a removal finds its element by binary search: O(log n) comparisons and no hashing. A removed
/// element is replaced by the list's `placeholder` (nothing shifts) and its key is marked as
/// removed; once removed ones outnumber the others, both arrays are compacted in place, which
/// moves each element at most once per compaction, so a removal moves a constant number of
/// elements on average.
///
/// Readers walk ``elements`` as they are, placeholders included, so the placeholder must be an
/// element that does nothing (for a subject's conduits, one whose closures ignore what they are
/// given): walking a plain array costs no more per element than before there were keys. A copy
/// of ``elements`` is a snapshot that later changes do not affect.
///
/// ```swift
/// var list = KeyedList<String>(placeholder: "")
/// let first = list.append("a")
/// list.append("b")
/// list.remove(first)   // "a"; list.elements is now ["", "b"]
/// ```
@usableFromInline
package struct KeyedList<Element> {
    /// The elements in the order they were added; removed ones are `placeholder`.
    @usableFromInline
    package var elements: ContiguousArray<Element> = []
    /// The key of each element of ``elements``, increasing, or its bitwise complement (a
    /// negative number) once the element was removed.
    @usableFromInline
    package var keys: ContiguousArray<Int> = []
    /// What stands for a removed element.
    @usableFromInline
    package let placeholder: Element
    /// The key the next ``append(_:)`` gives.
    @usableFromInline
    package var nextKey = 0
    /// How many elements have not been removed.
    @usableFromInline
    package var count = 0
    /// The work removals have cost so far, counted so that tests can check how it grows with
    /// the number of elements: the keys ``remove(_:)`` looked at to find its own...
    @usableFromInline
    package var removalProbes = 0
    /// ... and the elements it moved or dropped to get rid of removed ones.
    @usableFromInline
    package var removalMoves = 0

    /// Below this many elements, removed ones are left until the list empties or grows.
    @inlinable
    package static var compactionThreshold: Int { 16 }

    /// An empty list whose removed elements are replaced by `placeholder`.
    @inlinable
    package init(placeholder: Element) {
        self.placeholder = placeholder
    }

    /// Adds `element` after every other; returns its key.
    @inlinable
    @discardableResult
    package mutating func append(_ element: Element) -> Int {
        let key = nextKey
        nextKey += 1
        elements.append(element)
        keys.append(key)
        count += 1
        return key
    }

    /// Removes and returns the element under `key`; nil if there is none (never added, or
    /// removed already).
    @inlinable
    package mutating func remove(_ key: Int) -> Element? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            removalProbes += 1
            let probed = keys[middle]
            if (probed < 0 ? ~probed : probed) < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < keys.count, keys[low] == key else { return nil }
        keys[low] = ~key
        let removed = elements[low]
        elements[low] = placeholder
        count -= 1
        if count == 0 {
            removalMoves += elements.count
            elements.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        } else if keys.count - count > count, keys.count >= Self.compactionThreshold {
            compact()
        }
        return removed
    }

    /// Moves the remaining elements to the front, in order, and drops the removed ones.
    @inlinable
    package mutating func compact() {
        var kept = 0
        for index in keys.indices where keys[index] >= 0 {
            if index != kept {
                keys.swapAt(kept, index)
                elements.swapAt(kept, index)
            }
            kept += 1
        }
        removalMoves += keys.count
        keys.removeSubrange(kept...)
        elements.removeSubrange(kept...)
    }

    /// Empties the list and returns its elements, placeholders included; keys keep increasing.
    @inlinable
    package mutating func removeAll() -> ContiguousArray<Element> {
        count = 0
        keys = []
        defer { elements = [] }
        return elements
    }
}
