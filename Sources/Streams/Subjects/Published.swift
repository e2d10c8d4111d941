/// A property wrapper that publishes every change of the property.
///
/// `$property` is a publisher that gives each subscriber the current value, then every new
/// value. As in Combine, subscribers see a new value *before* the property stores it (the
/// publisher fires on `willSet`).
///
/// ```swift
/// final class SignUpViewModel {
///     @Published var userName = ""
///     @Published var isValid = false
///
///     init() {
///         $userName.map { $0.count >= 4 }.assign(to: &$isValid)
///     }
/// }
/// ```
@propertyWrapper
public struct Published<Value> {
    @usableFromInline
    let storage: PublishedStorage<Value>

    /// Makes a published property with an initial value.
    ///
    /// ```swift
    /// @Published var count = 0
    /// ```
    @inlinable
    public init(wrappedValue: Value) {
        storage = PublishedStorage(wrappedValue)
    }

    /// Makes a published property with an initial value.
    ///
    /// ```swift
    /// var count = Published(initialValue: 0)
    /// ```
    @inlinable
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// The property's value; setting it publishes the new value first, then stores it.
    @inlinable
    public var wrappedValue: Value {
        get { storage.current }
        nonmutating set { storage.set(newValue) }
    }

    /// The property as a class reaches it: the compiler routes every read and write of a
    /// `@Published` property of a class through this subscript, with the object that owns it.
    ///
    /// A write sends the owning ``ObservableObject``'s `objectWillChange` first (once someone
    /// has asked for it), then publishes the new value, then stores it.
    ///
    /// ```swift
    /// let name = Published<String>[_enclosingInstance: model, wrapped: \.name, storage: \._name]
    /// ```
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.current }
        set { object[keyPath: storageKeyPath].storage.set(newValue) }
    }

    /// The publisher of the property's values: `$property`. As in Combine, assigning it has no
    /// effect: `$property` keeps publishing this property's own values.
    @inlinable
    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        nonmutating set {}
    }

    /// The publisher of a `@Published` property: the current value to each new subscriber,
    /// then every change. It never fails or finishes.
    ///
    /// ```swift
    /// let cancellable = model.$userName.sink { print("typed", $0) }
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// A published property never fails.
        public typealias Failure = Never

        @usableFromInline
        let storage: PublishedStorage<Value>

        @inlinable
        init(storage: PublishedStorage<Value>) {
            self.storage = storage
        }

        /// Attaches `subscriber`; it receives the current value on its first request.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.subject.receive(subscriber: subscriber)
        }
    }
}

extension Publisher where Failure == Never {
    /// Republishes every value through a `@Published` property: `assign(to: &$property)`.
    ///
    /// No cancellable is returned: the subscription lives exactly as long as the property's
    /// storage, and holds it weakly, so the owning object has no retain cycle.
    ///
    /// ```swift
    /// $userName.map { $0.count >= 4 }.assign(to: &$isValid)
    /// ```
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        let storage = published.storage
        let cancellable = sink { [weak storage] value in
            storage?.set(value)
        }
        storage.keep(cancellable)
    }
}

/// What a `Published` property holds: its value, the subject that publishes it, and the
/// subscriptions `assign(to:)` tied to its lifetime.
@usableFromInline
final class PublishedStorage<Value>: Sendable {
    /// What the lock guards.
    @usableFromInline
    struct State {
        /// The property's value.
        @usableFromInline
        var stored: Value
        /// The `assign(to:)` subscriptions kept alive as long as the storage.
        @usableFromInline
        var assignments: [AnyCancellable] = []
        /// The enclosing `ObservableObject`'s `objectWillChange`, once someone has asked for it.
        @usableFromInline
        var willChange: ObservableObjectPublisher?

        @inlinable
        init(stored: Value) {
            self.stored = stored
        }
    }

    @usableFromInline
    let subject: PublishedSubject<Value>
    @usableFromInline
    let state: LockedState<State>

    @inlinable
    init(_ value: Value) {
        state = LockedState(State(stored: value))
        subject = PublishedSubject(value)
    }

    /// The property's value.
    @inlinable
    var current: Value {
        state.withLock { $0.stored }
    }

    /// Publishes `value`, then stores it (Combine's `willSet` order).
    @inlinable
    func set(_ value: Value) {
        state.withLock { $0.willChange }?.send()
        subject.send(value)
        state.withLock { $0.stored = value }
    }

    /// Keeps an `assign(to:)` subscription alive as long as this storage.
    @inlinable
    func keep(_ cancellable: AnyCancellable) {
        state.withLock { $0.assignments.append(cancellable) }
    }
}

extension Published: PublishedProperty {
    var willChange: ObservableObjectPublisher? {
        storage.state.withLock { $0.willChange }
    }

    func install(willChange publisher: ObservableObjectPublisher) {
        storage.state.withLock { $0.willChange = publisher }
    }
}
