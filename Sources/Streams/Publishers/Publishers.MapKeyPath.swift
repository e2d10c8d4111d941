extension Publisher {
    /// Replaces every value with the value at `keyPath`.
    ///
    /// ```swift
    /// let names = users.map(\.name)
    /// ```
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Replaces every value with a tuple of the values at two key paths.
    ///
    /// ```swift
    /// let pairs = users.map(\.name, \.age)
    /// ```
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Replaces every value with a tuple of the values at three key paths.
    ///
    /// ```swift
    /// let rows = users.map(\.name, \.age, \.email)
    /// ```
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>,
        _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// A publisher that replaces each value with the value at a key path.
    ///
    /// ```swift
    /// let names = Publishers.MapKeyPath(upstream: users, keyPath: \.name)
    /// ```
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream

        /// Where to read each output.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Makes a publisher of the values at `keyPath` of `upstream`'s values.
        ///
        /// ```swift
        /// let names = Publishers.MapKeyPath(upstream: users, keyPath: \.name)
        /// ```
        @inlinable
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Attaches `subscriber` through the key path.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.receive(
                subscriber: KeyPathInner(name: "ValueForKey", keyPaths: [keyPath], downstream: subscriber) {
                    $0[keyPath: keyPath]
                })
        }
    }

    /// A publisher that replaces each value with the values at two key paths.
    ///
    /// ```swift
    /// let pairs = Publishers.MapKeyPath2(upstream: users, keyPath0: \.name, keyPath1: \.age)
    /// ```
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// A tuple of the two values.
        public typealias Output = (Output0, Output1)
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// Where to read the first element.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// Where to read the second element.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Makes a publisher of tuples read from `upstream`'s values.
        ///
        /// ```swift
        /// let pairs = Publishers.MapKeyPath2(upstream: users, keyPath0: \.name, keyPath1: \.age)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Attaches `subscriber` through the key paths.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
            upstream.receive(
                subscriber:
                    KeyPathInner(name: "ValueForKeys", keyPaths: [keyPath0, keyPath1], downstream: subscriber) {
                        ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
                    })
        }
    }

    /// A publisher that replaces each value with the values at three key paths.
    ///
    /// ```swift
    /// let rows = Publishers.MapKeyPath3(upstream: users, keyPath0: \.name, keyPath1: \.age, keyPath2: \.email)
    /// ```
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// A tuple of the three values.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// Where to read the first element.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// Where to read the second element.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// Where to read the third element.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Makes a publisher of tuples read from `upstream`'s values.
        ///
        /// ```swift
        /// let rows = Publishers.MapKeyPath3(upstream: users, keyPath0: \.name, keyPath1: \.age, keyPath2: \.email)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Attaches `subscriber` through the key paths.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
            upstream.receive(
                subscriber:
                    KeyPathInner(name: "ValueForKeys", keyPaths: [keyPath0, keyPath1, keyPath2], downstream: subscriber) {
                        ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                    })
        }
    }
}

/// The key-path maps' subscriber: stateless, so the upstream subscription goes straight down.
@usableFromInline
struct KeyPathInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let name: String
    /// The key paths read, for the mirror.
    @usableFromInline
    let keyPaths: [AnyKeyPath]
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let read: (Input) -> Downstream.Input
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(
        name: String, keyPaths: [AnyKeyPath], downstream: Downstream, read: @escaping (Input) -> Downstream.Input
    ) {
        self.name = name
        self.keyPaths = keyPaths
        self.downstream = downstream
        self.read = read
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(read(input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        guard keyPaths.count > 1 else { return Mirror(self, children: ["keyPath": keyPaths.first as Any]) }
        return Mirror(self, children: keyPaths.enumerated().map { (label: "keyPath\($0.offset)", value: $0.element) })
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
