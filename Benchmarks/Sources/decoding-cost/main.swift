// Decodes a JSON array of N elements once, with or without `@Resilient`, so that
// `Benchmarks/decoding-instructions` can count what the wrapper (and the outcome its projected
// value reads) costs per element in a release build.
// Usage: decoding-cost plain|array|elements|both N
import Foundation
import StreamsDecoding

enum Status: String, Decodable, ResilientRawRepresentable {
    case active, suspended
}

struct Item: Decodable {
    let id: Int
    let name: String
    let status: Status?
}

struct ResilientItem: Decodable {
    let id: Int
    let name: String
    @Resilient var status: Status?
}

struct PlainFeed: Decodable { let items: [Item] }
struct ArrayFeed: Decodable { @Resilient var items: [Item] }
struct ElementsFeed: Decodable { let items: [ResilientItem] }
struct BothFeed: Decodable { @Resilient var items: [ResilientItem] }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: decoding-cost plain|array|elements|both N")
    exit(2)
}
let elements = (0..<count).map { #"{"id":\#($0),"name":"item \#($0)","status":"\#($0 % 2 == 0 ? "active" : "suspended")"}"# }
let data = Data(#"{"items":[\#(elements.joined(separator: ","))]}"#.utf8)
let decoder = JSONDecoder()
let decoded: Int
switch arguments[1] {
case "plain": decoded = try decoder.decode(PlainFeed.self, from: data).items.count
case "array": decoded = try decoder.decode(ArrayFeed.self, from: data).items.count
case "elements": decoded = try decoder.decode(ElementsFeed.self, from: data).items.count
case "both": decoded = try decoder.decode(BothFeed.self, from: data).items.count
case "sizes":
    print("Status?: \(MemoryLayout<Status?>.size) bytes, Resilient<Status?>: \(MemoryLayout<Resilient<Status?>>.size) bytes")
    print("[Item]: \(MemoryLayout<[Item]>.size) bytes, Resilient<[Item]>: \(MemoryLayout<Resilient<[Item]>>.size) bytes")
    print("Item: \(MemoryLayout<Item>.stride) bytes, ResilientItem: \(MemoryLayout<ResilientItem>.stride) bytes")
    decoded = count
default:
    print("unknown mode \(arguments[1])")
    exit(2)
}
precondition(decoded == count)
