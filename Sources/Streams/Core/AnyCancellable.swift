/// A type-erasing cancellable that cancels when it is deinitialized.
///
/// Keep it for as long as you want the subscription to live; `cancel()` may be called any number
/// of times from any thread, and only the first call runs the cancel action.
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// subject
///     .sink { print($0) }
///     .store(in: &cancellables)
/// ```
public final class AnyCancellable: Cancellable, Hashable, Sendable {
    /// The cancel action, until it has run.
    @usableFromInline
    let state: LockedState<PendingAction>

    /// Makes a cancellable that runs `cancel` the first time it is cancelled or deinitialized.
    ///
    /// ```swift
    /// let cancellable = AnyCancellable { print("cancelled") }
    /// ```
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        state = LockedState(PendingAction(cancel))
    }

    /// Makes a cancellable that cancels `canceller` the first time it is cancelled or
    /// deinitialized.
    ///
    /// ```swift
    /// let cancellable = AnyCancellable(subscription)
    /// ```
    @inlinable
    public convenience init<C: Cancellable>(_ canceller: C) {
        self.init(canceller.cancel)
    }

    /// A cancellable with nothing to cancel: what `sink` returns for a publisher whose events it
    /// delivered before returning. Cheaper than an empty closure, which its cancel would call.
    ///
    /// ```swift
    /// let ended = AnyCancellable()
    /// ```
    @inlinable
    init() {
        state = LockedState(PendingAction(nil))
    }

    /// Runs the cancel action, once; later calls do nothing.
    ///
    /// ```swift
    /// cancellable.cancel()
    /// ```
    @inlinable
    public func cancel() {
        state.withLock { $0.take() }.run()
    }

    deinit {
        cancel()
    }

    /// Two cancellables are equal only if they are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension AnyCancellable {
    /// Adds this cancellable to `set`, keeping it alive as long as the set holds it.
    ///
    /// ```swift
    /// var cancellables = Set<AnyCancellable>()
    /// publisher.sink { _ in }.store(in: &cancellables)
    /// ```
    @inlinable
    public final func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Appends this cancellable to `collection`, keeping it alive as long as the collection
    /// holds it.
    ///
    /// ```swift
    /// var cancellables: [AnyCancellable] = []
    /// publisher.sink { _ in }.store(in: &cancellables)
    /// ```
    @inlinable
    public final func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }
}

extension Cancellable {
    /// Wraps this cancellable in an ``AnyCancellable`` and adds it to `set`.
    ///
    /// ```swift
    /// subscription.store(in: &cancellables)
    /// ```
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }

    /// Wraps this cancellable in an ``AnyCancellable`` and appends it to `collection`.
    ///
    /// ```swift
    /// subscription.store(in: &cancellableArray)
    /// ```
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }
}
