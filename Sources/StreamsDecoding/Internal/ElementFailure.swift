/// One element of a collection that could not be decoded, and where it was.
struct ElementFailure: Sendable {
    /// The element's index in the array, or its key in the dictionary.
    let key: AnyCodingKey
    let error: any Error
}
