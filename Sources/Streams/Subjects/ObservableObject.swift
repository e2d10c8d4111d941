/// An object that announces its changes before they happen, through `objectWillChange`.
///
/// By default `objectWillChange` is an ``ObservableObjectPublisher`` that sends before any of
/// the object's `@Published` properties (its own or its superclasses') changes. Provide your
/// own `objectWillChange` to announce other changes.
///
/// ```swift
/// final class SignUpModel: ObservableObject {
///     @Published var userName = ""
///     @Published var isAvailable = false
/// }
/// let model = SignUpModel()
/// let cancellable = model.objectWillChange.sink { print("about to change") }
/// model.userName = "alice"   // "about to change", then userName is "alice"
/// ```
public protocol ObservableObject: AnyObject {
    /// The type of `objectWillChange`.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Sends before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that sends before any `@Published` property of the object changes; the same
    /// publisher every time for the same object. An object without `@Published` properties gets
    /// a new publisher that never sends.
    ///
    /// ```swift
    /// model.objectWillChange.sink { print("about to change") }
    /// ```
    public var objectWillChange: ObservableObjectPublisher {
        var properties: [any PublishedProperty] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any PublishedProperty { properties.append(property) }
            }
            mirror = current.superclassMirror
        }
        guard !properties.isEmpty else { return ObservableObjectPublisher() }
        return publishedPropertiesInstallation.withLock { _ in
            let publisher = properties.lazy.compactMap(\.willChange).first ?? ObservableObjectPublisher()
            for property in properties { property.install(willChange: publisher) }
            return publisher
        }
    }
}

/// Serialises handing an object's `objectWillChange` to its `@Published` properties, so that two
/// threads asking at once get the same publisher.
let publishedPropertiesInstallation = LockedState<Void>()

/// A `@Published` property, as `ObservableObject` finds it by reflection.
protocol PublishedProperty {
    /// The publisher told before the property changes, once installed.
    var willChange: ObservableObjectPublisher? { get }
    /// Tells the property to send `willChange` before every change.
    func install(willChange: ObservableObjectPublisher)
}
