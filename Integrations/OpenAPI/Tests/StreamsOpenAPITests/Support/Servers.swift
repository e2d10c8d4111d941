import Foundation

/// A stand-in for the generated `Servers`: the document's one server.
enum Servers {
    /// The first server in the document.
    enum Server1 {
        static func url() throws -> URL { URL(string: "https://api.example.com/v1")! }
    }
}
