/// The signed-in customer's account, which the server gives only with a valid bearer token.
///
/// ```swift
/// client.account().sink(receiveCompletion: { _ in }, receiveValue: { account in greet(account.name) })
/// ```
public struct Account: Decodable, Sendable, Equatable {
    /// The customer's identifier.
    public let id: Int
    /// The customer's name.
    public let name: String

    /// Makes an account (the client decodes them; tests compare with one).
    ///
    /// ```swift
    /// let ada = Account(id: 7, name: "Ada")
    /// ```
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
