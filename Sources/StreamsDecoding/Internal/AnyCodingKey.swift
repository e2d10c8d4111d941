/// A coding key for any string or index: the keys of a `[String: T]` and the positions of
/// elements in a report.
@usableFromInline
struct AnyCodingKey: CodingKey {
    @usableFromInline
    let stringValue: String
    @usableFromInline
    let intValue: Int?

    @usableFromInline
    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    @usableFromInline
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
