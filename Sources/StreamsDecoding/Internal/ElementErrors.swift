/// The error a collection was recovered from when some of its elements failed: the outcome of
/// a `@Resilient` array or dictionary that left elements out.
struct ElementErrors: Error, CustomStringConvertible {
    let failures: [ElementFailure]

    var description: String {
        let noun = failures.count == 1 ? "element" : "elements"
        let list = failures.map { "\(DigestPath.name(of: $0.key)): \($0.error)" }.joined(separator: "; ")
        return "\(failures.count) \(noun) could not be decoded (\(list))"
    }
}
