/// Owned by an iterator of `values`: dropping the last copy of the iterator cancels the
/// subscription.
@usableFromInline
final class AsyncBridgeOwner<Input, Failure: Error>: Sendable {
    @usableFromInline
    let bridge: AsyncBridge<Input, Failure>

    @inlinable
    init(_ bridge: AsyncBridge<Input, Failure>) {
        self.bridge = bridge
    }

    deinit {
        bridge.cancel()
    }
}
