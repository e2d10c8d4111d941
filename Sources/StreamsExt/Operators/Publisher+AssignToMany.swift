import Streams

extension Publisher where Failure == Never {
    /// Assigns every value to two properties, in order, holding both roots strongly; CombineExt's
    /// form without an ownership, for roots of any type (a class, or a value whose property has a
    /// `nonmutating set`). For classes, `assign(to:on:and:on:ownership:)` also lets go of them.
    ///
    /// ```swift
    /// name.assign(to: \.title, on: header, and: \.text, on: field)
    /// ```
    public func assign<Root1, Root2>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
        on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
        on object2: Root2
    ) -> AnyCancellable {
        sink { value in
            object1[keyPath: keyPath1] = value
            object2[keyPath: keyPath2] = value
        }
    }

    /// Assigns every value to three properties, in order, holding the roots strongly;
    /// CombineExt's form without an ownership, for roots of any type.
    ///
    /// ```swift
    /// name.assign(to: \.title, on: header, and: \.text, on: field, and: \.name, on: settings)
    /// ```
    public func assign<Root1, Root2, Root3>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
        on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
        on object2: Root2,
        and keyPath3: ReferenceWritableKeyPath<Root3, Output>,
        on object3: Root3
    ) -> AnyCancellable {
        sink { value in
            object1[keyPath: keyPath1] = value
            object2[keyPath: keyPath2] = value
            object3[keyPath: keyPath3] = value
        }
    }
}
