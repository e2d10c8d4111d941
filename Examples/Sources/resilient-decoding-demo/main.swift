// Resilient decoding: a newer server sends a feed of accounts with a role this app does not know,
// one malformed account and a bad badge. Plain `decode` would fail the whole feed; `@Resilient`
// keeps what it can, and the digest says what was lost and where.
//
//     swift run --package-path Examples resilient-decoding-demo

import Foundation
import Streams
import StreamsDecoding

enum Role: String, ResilientRawRepresentable {
    case admin, member, guest, unknown
    static var decodingFallback: Role { .unknown }
}

enum Plan: String, ResilientRawRepresentable {
    case free, pro
}

struct Account: Decodable {
    let id: Int
    let name: String
    @Resilient var role: Role
    @Resilient var plans: [Plan]
    @Resilient var badges: [String: Int]
}

struct Feed: Decodable {
    @Resilient var accounts: [Account]
    @Resilient var featured: Account?
}

let payload = #"""
    {
      "accounts": [
        {"id": 1, "name": "ada",   "role": "admin",     "plans": ["pro"],             "badges": {"gold": 3}},
        {"id": 2, "name": "grace", "role": "moderator", "plans": ["free", "team"],    "badges": {"silver": "two"}},
        {"id": "3", "name": "linus"},
        {"id": 4, "name": "barbara"}
      ],
      "featured": {"id": 5}
    }
    """#

// Everything below runs synchronously on the main thread (Just delivers at once).
nonisolated(unsafe) var failures = 0
nonisolated(unsafe) var digestText = ""

func check(_ condition: Bool, _ what: String) {
    print("  \(condition ? "ok  " : "FAIL") \(what)")
    if !condition { failures += 1 }
}

print("Decoding a feed from a newer server through decode(type:decoder:reportResilientDecodingErrors:)\n")
let cancellable = Just(Data(payload.utf8))
    .decode(type: Feed.self, decoder: JSONDecoder()) { digest in
        digestText = digest.debugDescription
        print("Digest handed to the logging closure:\n\(digest.debugDescription)\n")
        let everything = digest.errors(includeUnknownNovelValueErrors: true)
        print("\(digest.errors.count) errors to look at; \(everything.count - digest.errors.count) values from a newer server\n")
    }
    .sink(
        receiveCompletion: { completion in
            if case .failure(let error) = completion {
                print("FAILED: the feed could not be decoded at all: \(error)")
                failures += 1
            }
        },
        receiveValue: { feed in
            print("Decoded:")
            for account in feed.accounts {
                print(
                    "  #\(account.id) \(account.name): role \(account.role), plans \(account.plans.map(\.rawValue)), badges \(account.badges)"
                )
            }
            print(
                "  featured: \(feed.featured.map(\.name) ?? "none")\(feed.$featured.error == nil ? "" : " (recovered from an error)")\n"
            )
            print("Checks:")
            check(feed.accounts.map(\.id) == [1, 2, 4], "the malformed account #3 is left out, the others kept")
            check(feed.accounts[1].role == .unknown, "the unknown role \"moderator\" becomes the fallback .unknown")
            check(feed.accounts[1].plans == [.free], "the unknown plan \"team\" is left out")
            check(feed.accounts[1].badges.isEmpty, "the bad badge is left out")
            check(feed.accounts[2].role == .unknown && feed.accounts[2].plans.isEmpty, "missing keys give the fallback and []")
            check(feed.featured == nil, "the featured account without a name is nil")
            check(feed.$accounts.results.count == 4, "$accounts.results has one result per account sent")
        })
_ = cancellable
check(digestText.hasPrefix("3 errors (and 2 unknown novel values)"), "the digest counts 3 errors and 2 novel values")

print("")
if failures == 0 {
    print("OK: the feed survived one malformed account, unknown enum values and a bad badge.")
    exit(0)
} else {
    print("FAILED: \(failures) checks did not hold.")
    exit(1)
}
