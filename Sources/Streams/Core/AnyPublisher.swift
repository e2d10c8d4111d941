/// A publisher that hides the type of the publisher it wraps.
///
/// Return `AnyPublisher` from APIs so that their pipeline can change without changing the
/// signature.
///
/// ```swift
/// func names() -> AnyPublisher<String, Never> {
///     ["a", "b"].publisher.map { $0.uppercased() }.eraseToAnyPublisher()
/// }
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let box: PublisherBoxBase<Output, Failure>

    /// Wraps `publisher`.
    ///
    /// ```swift
    /// let erased = AnyPublisher(Just(1))
    /// ```
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// `"AnyPublisher"`.
    public var description: String { "AnyPublisher" }

    /// The same as ``description``, as in Combine.
    ///
    /// ```swift
    /// let shown = Just(1).eraseToAnyPublisher().playgroundDescription   // "AnyPublisher"
    /// ```
    public var playgroundDescription: Any { description }

    /// Attaches `subscriber` to the wrapped publisher.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }

    /// The wrapped publisher's outcome, when it is known without subscribing (worked out when
    /// it was wrapped), so that `flatMap { ... .eraseToAnyPublisher() }` of a `Just` does not
    /// subscribe to it either.
    ///
    /// ```swift
    /// Just(1).eraseToAnyPublisher()._immediateOutcome()   // .success(1)
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Failure>? {
        guard let outcome = box.immediateOutcome else { return nil }
        return unsafeDowncast(outcome, to: Box<Result<Output?, Failure>>.self).value
    }
}

extension Publisher {
    /// Wraps this publisher in an ``AnyPublisher``, hiding its type.
    ///
    /// ```swift
    /// let erased: AnyPublisher<Int, Never> = Just(1).map { $0 + 1 }.eraseToAnyPublisher()
    /// ```
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns `self`: erasing an `AnyPublisher` again adds no layer.
    ///
    /// ```swift
    /// let same = erased.eraseToAnyPublisher()
    /// ```
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        self
    }
}

/// The abstract class that hides the wrapped publisher's type.
@usableFromInline
class PublisherBoxBase<Output, Failure: Error> {
    /// The wrapped publisher's `_immediateOutcome()`, in a ``Box``, or nil. An object rather
    /// than the outcome itself: a field of a type built from the generic parameters would make
    /// the deinitializer, which runs unspecialised, look its metadata up; the box's one field
    /// is its own generic parameter.
    @usableFromInline
    let immediateOutcome: AnyObject?

    @inlinable
    init(immediateOutcome: AnyObject?) {
        self.immediateOutcome = immediateOutcome
    }

    @usableFromInline
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        preconditionFailure("PublisherBoxBase.receive(subscriber:) is abstract")
    }
}

/// The box that wraps a publisher of type `Base`.
@usableFromInline
final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure> {
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
        super.init(immediateOutcome: base._immediateOutcome().map(Box.init))
    }

    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}
