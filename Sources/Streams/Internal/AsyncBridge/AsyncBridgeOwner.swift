/// Owned by an iterator of `values`: dropping the last copy of the iterator cancels the
/// subscription.
@usableFromInline
package final class AsyncBridgeOwner<Input, Failure: Error>: Sendable {
    @usableFromInline
    package let bridge: AsyncBridge<Input, Failure>

    @inlinable
    package init(_ bridge: AsyncBridge<Input, Failure>) {
        self.bridge = bridge
    }

    deinit {
        bridge.cancel()
    }
}
