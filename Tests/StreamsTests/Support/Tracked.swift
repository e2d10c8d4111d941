/// An object whose lifetime a test watches through a weak reference, to check that a
/// subscription lets go of what its closures capture.
final class Tracked: @unchecked Sendable {}

/// A tiny recorder for side effects inside closures.
final class Log<Element>: @unchecked Sendable {
    private(set) var items: [Element] = []
    func append(_ item: Element) { items.append(item) }
}
