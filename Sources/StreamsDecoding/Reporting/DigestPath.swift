/// How coding paths read in a digest: keys by name, array positions as `[3]`.
enum DigestPath {
    /// `posts`, or `[3]` for the element at index 3.
    static func name(of key: any CodingKey) -> String {
        if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
            return "[\(index)]"
        }
        return key.stringValue
    }

    /// The array position a name from ``name(of:)`` stands for (`3` for `[3]`), or `nil` for a key.
    static func index(in name: String) -> Int? {
        guard name.hasPrefix("["), name.hasSuffix("]") else { return nil }
        return Int(name.dropFirst().dropLast())
    }
}
