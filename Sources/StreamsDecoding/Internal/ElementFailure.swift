/// One element of a collection that could not be decoded, and where it was.
@usableFromInline
struct ElementFailure: Sendable {
    /// The element's index in the array, or its key in the dictionary.
    @usableFromInline
    let key: AnyCodingKey
    @usableFromInline
    let error: any Error

    @usableFromInline
    init(key: AnyCodingKey, error: any Error) {
        self.key = key
        self.error = error
    }
}
