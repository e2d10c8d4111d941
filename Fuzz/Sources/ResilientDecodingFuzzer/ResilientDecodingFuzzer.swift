import Foundation
import StreamsDecoding

// Input: JSON bytes, decoded into a model whose properties are all `@Resilient` (arrays,
// optional arrays and dictionaries, nested resilient elements, enums with and without a
// fallback, a generic `T?`). Besides "no crash, no hang", it checks what a caller relies on:
// - a JSON object always decodes: every property recovers, so only a bad document throws;
// - the same bytes give the same values and the same digest text, decoded twice;
// - a reporter changes nothing but `wasReported`: the values are those decoded without one;
// - each recovered error is in the digest, whose header counts its errors;
// - a collection's `results` has one entry per element sent, the kept ones in order.

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("absurd result: \(message())") }
}

enum Layout: String, ResilientRawRepresentable, Hashable {
    case list, grid, unknown
    static var decodingFallback: Layout { .unknown }
}

enum Status: String, ResilientRawRepresentable, Hashable {
    case active, archived
}

enum Weekday: Int, ResilientRawRepresentable, Hashable {
    case monday = 1
    case tuesday, wednesday
    static var isFrozen: Bool { true }
}

struct Post: Decodable, Hashable {
    let id: Int
    @Resilient var title: String?
    @Resilient var status: Status?
    @Resilient var replies: [Post]?
}

struct Badge: Decodable, Hashable {
    let name: String
    @Resilient var level: Weekday?
}

struct Page<Items: Decodable & Hashable>: Decodable, Hashable {
    @Resilient var items: Items?
}

struct Feed: Decodable, Hashable {
    @Resilient var posts: [Post]
    @Resilient var pinned: Post?
    @Resilient var tags: [String]?
    @Resilient var statuses: [Status]
    @Resilient var badges: [String: Badge]
    @Resilient var counts: [String: Int]?
    @Resilient var layout: Layout
    @Resilient var day: Weekday?
    @Resilient var page: Page<[Int]>?
}

/// Whether the decoder reads `data` as a JSON object (it scans the whole document first, so an
/// object here is a document with no syntax error).
struct ObjectProbe: Decodable {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: Key.self) }
}

/// Checks one property decoded with a reporter and without: as many errors both ways, an outcome
/// that says whether they were reported, and no errors unless it recovered. Returns the count.
func checkProperty(
    _ name: String, reported: ResilientDecodingOutcome, plain: ResilientDecodingOutcome, errors: (Int, Int)
) -> Int {
    check(errors.0 == errors.1, "\(name): \(errors.0) errors with a reporter, \(errors.1) without")
    switch (reported, plain) {
    case (.recoveredFrom(_, let wasReported), .recoveredFrom(_, let plainWasReported)):
        check(wasReported && !plainWasReported, "\(name): reported \(wasReported), without a reporter \(plainWasReported)")
        check(errors.0 > 0, "\(name): recovered from no error")
    case (.recoveredFrom, _), (_, .recoveredFrom):
        fatalError("absurd result: \(name) is \(reported) with a reporter, \(plain) without")
    default:
        check(errors.0 == 0, "\(name): \(errors.0) errors after \(reported)")
    }
    return errors.0
}

func checkArray<Element>(_ kept: [Element], results: [Result<Element, any Error>], errors: Int, where name: String)
where Element: Equatable {
    let successes = results.compactMap { try? $0.get() }
    let failures = results.count - successes.count
    check(successes == kept, "\(name): results do not hold the kept elements in order")
    if failures > 0 { check(failures == errors, "\(name): \(failures) failed results, \(errors) errors") }
}

func checkDictionary<Value>(_ kept: [String: Value], results: [String: Result<Value, any Error>], where name: String)
where Value: Equatable {
    for (key, value) in kept {
        check((try? results[key]?.get()) == value, "\(name): kept entry \(key.debugDescription) not in results")
    }
    let failures = results.values.filter { (try? $0.get()) == nil }.count
    check(results.count == kept.count + failures, "\(name): results hold entries that were not sent")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let decoder = JSONDecoder()
    let isObject = (try? decoder.decode(ObjectProbe.self, from: bytes)) != nil
    let first: (Feed, ErrorDigest?)
    do {
        first = try decoder.decode(Feed.self, from: bytes, reportResilientDecodingErrors: true)
    } catch {
        check(!isObject, "a JSON object failed to decode: \(error)")
        return 0
    }
    check(isObject, "a document that is not a JSON object decoded")
    let (feed, digest) = first

    // The same bytes, decoded again: the same values and the same digest.
    guard let (again, secondDigest) = try? decoder.decode(Feed.self, from: bytes, reportResilientDecodingErrors: true)
    else { fatalError("absurd result: the second decode threw") }
    check(again == feed, "two decodes of the same bytes differ")
    check(
        digest?.debugDescription == secondDigest?.debugDescription,
        "two digests of the same bytes differ:\n\(digest?.debugDescription ?? "nil")\n--\n\(secondDigest?.debugDescription ?? "nil")"
    )

    // Without a reporter: the same values, and nothing says it was reported.
    guard let plain = try? decoder.decode(Feed.self, from: bytes) else {
        fatalError("absurd result: decoding without a reporter threw")
    }
    check(plain == feed, "a reporter changed the decoded values")

    // Each property's errors, and whether they were reported.
    func count(_ error: (any Error)?) -> Int { error == nil ? 0 : 1 }
    let topLevelErrors = [
        checkProperty(
            "posts", reported: feed.$posts.outcome, plain: plain.$posts.outcome,
            errors: (feed.$posts.errors.count, plain.$posts.errors.count)),
        checkProperty(
            "pinned", reported: feed.$pinned.outcome, plain: plain.$pinned.outcome,
            errors: (count(feed.$pinned.error), count(plain.$pinned.error))),
        checkProperty(
            "tags", reported: feed.$tags.outcome, plain: plain.$tags.outcome,
            errors: (feed.$tags.errors.count, plain.$tags.errors.count)),
        checkProperty(
            "statuses", reported: feed.$statuses.outcome, plain: plain.$statuses.outcome,
            errors: (feed.$statuses.errors.count, plain.$statuses.errors.count)),
        checkProperty(
            "badges", reported: feed.$badges.outcome, plain: plain.$badges.outcome,
            errors: (feed.$badges.errors.count, plain.$badges.errors.count)),
        checkProperty(
            "counts", reported: feed.$counts.outcome, plain: plain.$counts.outcome,
            errors: (feed.$counts.errors.count, plain.$counts.errors.count)),
        checkProperty(
            "layout", reported: feed.$layout.outcome, plain: plain.$layout.outcome,
            errors: (count(feed.$layout.error), count(plain.$layout.error))),
        checkProperty(
            "day", reported: feed.$day.outcome, plain: plain.$day.outcome,
            errors: (count(feed.$day.error), count(plain.$day.error))),
        checkProperty(
            "page", reported: feed.$page.outcome, plain: plain.$page.outcome,
            errors: (count(feed.$page.error), count(plain.$page.error))),
    ].reduce(0, +)

    // The digest holds at least every top-level error (nested ones come on top), and its header
    // counts the errors that are not unknown novel values.
    let reportedCount = digest?.errors(includeUnknownNovelValueErrors: true).count ?? 0
    check(reportedCount >= topLevelErrors, "\(topLevelErrors) errors recovered, \(reportedCount) in the digest")
    check((digest == nil) == (reportedCount == 0), "an empty digest")
    if let digest {
        let counted = digest.errors.count
        let header = digest.debugDescription.prefix { $0 != "\n" }
        check(
            header.hasPrefix(counted == 1 ? "1 error" : "\(counted) errors"),
            "header \(header.debugDescription) for \(counted) errors")
    }

    // Collections: one result per element sent, the kept ones in order.
    checkArray(feed.posts, results: feed.$posts.results, errors: feed.$posts.errors.count, where: "posts")
    checkArray(feed.tags ?? [], results: feed.$tags.results, errors: feed.$tags.errors.count, where: "tags")
    checkArray(feed.statuses, results: feed.$statuses.results, errors: feed.$statuses.errors.count, where: "statuses")
    checkDictionary(feed.badges, results: feed.$badges.results, where: "badges")
    checkDictionary(feed.counts ?? [:], results: feed.$counts.results, where: "counts")
    for post in feed.posts + [feed.pinned].compactMap({ $0 }) {
        checkArray(post.replies ?? [], results: post.$replies.results, errors: post.$replies.errors.count, where: "replies")
    }
    // An optional collection is nil only when nothing was sent.
    if feed.tags == nil {
        switch feed.$tags.outcome {
        case .keyNotFound, .valueWasNil: break
        default: fatalError("absurd result: tags is nil after \(feed.$tags.outcome)")
        }
    }
    return 0
}
