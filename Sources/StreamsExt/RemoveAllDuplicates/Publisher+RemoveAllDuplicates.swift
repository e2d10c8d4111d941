import Streams

extension Publisher where Output: Hashable {
    /// Passes on only the values not sent before, over the whole stream (`removeDuplicates()`
    /// compares each value with the one before it only). CombineExt's `removeAllDuplicates()`.
    ///
    /// Every distinct value is kept in a set for as long as the subscription lasts: mind the
    /// memory with streams of many distinct values. Each subscription has its own set.
    ///
    /// ```
    /// upstream: -1-1-2-1-3-3-4-|
    /// result:   -1---2---3---4-|
    /// ```
    ///
    /// ```swift
    /// let newIDs = ids.removeAllDuplicates()
    /// ```
    @inlinable
    public func removeAllDuplicates() -> Publishers.RemoveAllDuplicates<Self> {
        Publishers.RemoveAllDuplicates(upstream: self)
    }
}

extension Publisher where Output: Equatable {
    /// Passes on only the values not equal to one sent before, over the whole stream.
    /// CombineExt's `removeAllDuplicates()` for values that are not `Hashable`.
    ///
    /// Every distinct value is kept in an array and each new value is compared with all of them:
    /// the cost grows with the number of distinct values.
    ///
    /// ```swift
    /// let newNames = names.removeAllDuplicates()
    /// ```
    @inlinable
    public func removeAllDuplicates() -> Publishers.RemoveAllDuplicates<Self> {
        Publishers.RemoveAllDuplicates(upstream: self, by: ==)
    }
}

extension Publisher {
    /// Passes on only the values for which `areDuplicates(earlier, value)` holds against no
    /// value sent before. CombineExt's `removeAllDuplicates(by:)`.
    ///
    /// Every value sent is kept for as long as the subscription lasts, and each new value is
    /// checked against all of them.
    ///
    /// ```swift
    /// let oneUserEach = sessions.removeAllDuplicates { $0.userID == $1.userID }
    /// ```
    @inlinable
    public func removeAllDuplicates(
        by areDuplicates: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveAllDuplicates<Self> {
        Publishers.RemoveAllDuplicates(upstream: self, by: areDuplicates)
    }
}
