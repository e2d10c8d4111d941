/// One of the two publishers an `amb` races.
@usableFromInline
enum AmbSide: Sendable {
    case first
    case second
}
