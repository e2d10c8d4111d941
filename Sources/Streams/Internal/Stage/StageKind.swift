/// Which operator a ``StageSubscription`` serves. Combine's rules at the edges (what a
/// subscription reports about itself, `request(.none)`, a cancel or a value before the upstream
/// subscription) differ per operator; each answer is a `switch` over this enum, read only on
/// those edges, never on the value path of a subscribed stage.
@usableFromInline
package enum StageKind: Sendable {
    case tryMap, tryScan, output, dropWhile, tryDropWhile, encode, decode
    // Combine's filter family: one "producer" inner with stricter rules.
    case tryFilter, tryCompactMap, removeDuplicates, tryRemoveDuplicates, prefixWhile, tryPrefixWhile

    /// The name Combine gives this operator's subscription.
    @usableFromInline
    package var description: String {
        switch self {
        case .tryMap: "TryMap"
        case .tryScan: "TryScan"
        case .output: "Output"
        case .dropWhile: "DropWhile"
        case .tryDropWhile: "TryDropWhile"
        case .encode: "Encode"
        case .decode: "Decode"
        case .tryFilter: "TryFilter"
        case .tryCompactMap: "TryCompactMap"
        case .removeDuplicates: "RemoveDuplicates"
        case .tryRemoveDuplicates: "TryRemoveDuplicates"
        case .prefixWhile: "PrefixWhile"
        case .tryPrefixWhile: "TryPrefixWhile"
        }
    }

    /// The filter family traps on a value or a completion before the upstream
    /// subscription, and cancels a subscription that arrives after an early `cancel()`.
    @usableFromInline
    package var isFilterFamily: Bool {
        switch self {
        case .tryFilter, .tryCompactMap, .removeDuplicates, .tryRemoveDuplicates, .prefixWhile, .tryPrefixWhile: true
        default: false
        }
    }

    /// Whether `request(.none)` is an API violation (it is forwarded upstream otherwise).
    @usableFromInline
    package var trapsOnZeroDemand: Bool {
        switch self {
        case .dropWhile, .tryDropWhile: true
        default: isFilterFamily
        }
    }

    /// Whether a value that arrives before the upstream subscription is ignored, unseen by the
    /// operator's closure (the others process it, or trap: ``isFilterFamily``). Combine's
    /// `output`, `encode` and `decode` forward such a value to a downstream that has no
    /// subscription yet; Streams does not (a documented difference).
    @usableFromInline
    package var ignoresValuesBeforeSubscription: Bool {
        switch self {
        case .dropWhile, .tryDropWhile, .output, .encode, .decode: true
        default: false
        }
    }
}
