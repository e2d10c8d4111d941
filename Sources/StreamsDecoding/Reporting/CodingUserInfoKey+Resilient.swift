extension CodingUserInfoKey {
    /// The `userInfo` key under which `@Resilient` properties find their
    /// ``ResilientDecodingErrorReporter``.
    ///
    /// ```swift
    /// decoder.userInfo[.resilientDecodingErrorReporter] = reporter
    /// ```
    public static let resilientDecodingErrorReporter = CodingUserInfoKey(rawValue: "resilientDecodingErrorReporter")!
}
