/// A small, fast random number generator that gives the same numbers for the same seed
/// (SplitMix64), for reproducible jitter in tests and simulations. Not for cryptography.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 7)
/// let delays = (1...3).map { Backoff.exponential().delay(forRetry: $0, previous: nil, using: &random) }
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Makes a generator whose numbers depend only on `seed`.
    ///
    /// ```swift
    /// var random = SeededRandomNumberGenerator(seed: 42)
    /// ```
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
