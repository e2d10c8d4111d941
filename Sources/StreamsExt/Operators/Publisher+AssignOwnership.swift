import Streams

extension Publisher where Failure == Never {
    /// Assigns every value to `object`'s property at `keyPath`, holding `object` as `ownership`
    /// says: `.strong` is `assign(to:on:)`; `.weak` and `.unowned` do not keep `object` alive,
    /// which breaks the cycle of an object assigning its own publisher to itself.
    ///
    /// With `.weak` and `.unowned` the subscription is a `sink` that asks for every value.
    ///
    /// ```swift
    /// final class Model { @Published var count = 0; var label = "" }
    /// let model = Model()
    /// model.$count.map(String.init).assign(to: \.label, on: model, ownership: .weak)
    ///     .store(in: &cancellables)
    /// ```
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>,
        on object: Root,
        ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            return assign(to: keyPath, on: object)
        case .weak:
            return sink { [weak object] value in object?[keyPath: keyPath] = value }
        case .unowned:
            return sink { [unowned object] value in object[keyPath: keyPath] = value }
        }
    }

    /// Assigns every value to two objects' properties, in order, holding both as `ownership`
    /// says (see ``assign(to:on:ownership:)``).
    ///
    /// ```swift
    /// name.assign(to: \.title, on: header, and: \.text, on: field, ownership: .weak)
    /// ```
    public func assign<Root1: AnyObject, Root2: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
        on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
        on object2: Root2,
        ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            return sink { value in
                object1[keyPath: keyPath1] = value
                object2[keyPath: keyPath2] = value
            }
        case .weak:
            return sink { [weak object1, weak object2] value in
                object1?[keyPath: keyPath1] = value
                object2?[keyPath: keyPath2] = value
            }
        case .unowned:
            return sink { [unowned object1, unowned object2] value in
                object1[keyPath: keyPath1] = value
                object2[keyPath: keyPath2] = value
            }
        }
    }

    /// Assigns every value to three objects' properties, in order, holding them as `ownership`
    /// says (see ``assign(to:on:ownership:)``).
    ///
    /// ```swift
    /// name.assign(to: \.title, on: header, and: \.text, on: field, and: \.name, on: model)
    /// ```
    public func assign<Root1: AnyObject, Root2: AnyObject, Root3: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
        on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
        on object2: Root2,
        and keyPath3: ReferenceWritableKeyPath<Root3, Output>,
        on object3: Root3,
        ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            return sink { value in
                object1[keyPath: keyPath1] = value
                object2[keyPath: keyPath2] = value
                object3[keyPath: keyPath3] = value
            }
        case .weak:
            return sink { [weak object1, weak object2, weak object3] value in
                object1?[keyPath: keyPath1] = value
                object2?[keyPath: keyPath2] = value
                object3?[keyPath: keyPath3] = value
            }
        case .unowned:
            return sink { [unowned object1, unowned object2, unowned object3] value in
                object1[keyPath: keyPath1] = value
                object2[keyPath: keyPath2] = value
                object3[keyPath: keyPath3] = value
            }
        }
    }
}
