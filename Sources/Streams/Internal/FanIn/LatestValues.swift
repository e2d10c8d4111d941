/// The latest value of each upstream of a collection's `combineLatest`, kept typed: a value sets
/// one slot, and the combined array is the kept array itself, handed on without being rebuilt.
/// A value therefore costs the same with 10 upstreams as with 10,000, once the downstream has let
/// go of the previous array (if it keeps it, the next value copies the array once).
///
/// Reached only under the lock of the ``FanInSubscription``'s outlet (its `keep` and `combine`
/// closures), like the table it stands in for.
///
/// ```swift
/// let latest = LatestValues<Int>(count: 2)
/// latest.keep(1, at: 0)
/// latest.keep(2, at: 1)
/// latest.combined()   // [1, 2]
/// ```
@usableFromInline
package final class LatestValues<Value> {
    /// The values received until every upstream has sent one.
    @usableFromInline
    package var pending: [Value?]
    /// Every upstream's latest value, once each has sent one.
    @usableFromInline
    package var values: [Value] = []
    /// Whether `values` holds every upstream's value.
    @usableFromInline
    package var complete = false

    /// Room for `count` upstreams, none of which has sent a value.
    @inlinable
    package init(count: Int) {
        pending = Array(repeating: nil, count: count)
    }

    /// Keeps `value` as the latest of upstream `index`; returns the value it replaces, for the
    /// caller to let go once it has left the lock.
    @inlinable
    @discardableResult
    package func keep(_ value: Value, at index: Int) -> Value? {
        var value = value
        if complete {
            swap(&values[index], &value)
            return value
        }
        var slot: Value? = value
        swap(&pending[index], &slot)
        return slot
    }

    /// The latest values in the upstreams' order; call only once every upstream has sent one.
    @inlinable
    package func combined() -> [Value] {
        if !complete {
            values = pending.map { $0! }
            pending = []
            complete = true
        }
        return values
    }
}
