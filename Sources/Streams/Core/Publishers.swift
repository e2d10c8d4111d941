/// The namespace of publisher types that operators return, such as `Publishers.Map`.
///
/// ```swift
/// let doubled: Publishers.Map<Publishers.Sequence<[Int], Never>, Int> =
///     Publishers.Sequence(sequence: [1, 2]).map { $0 * 2 }
/// ```
public enum Publishers {}
