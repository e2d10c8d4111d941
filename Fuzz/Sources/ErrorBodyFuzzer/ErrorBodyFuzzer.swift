import Foundation
import StreamsNetworking

// Input: an error body. Besides "no crash, no hang", it checks what a caller relies on: a body
// longer than the parsing limit is never parsed; what is parsed has no empty strings in it
// (an empty member counts as absent), and every field error has a message.

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("absurd result: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    guard let problem = ProblemDetails.parse(body) else { return 0 }
    check(body.count <= ProblemDetails.parsingLimit, "a body of \(body.count) bytes was parsed")
    for text in [problem.type, problem.title, problem.detail, problem.instance] {
        check(text.map { !$0.isEmpty } ?? true, "an empty member was kept")
    }
    check(problem.fieldErrors.allSatisfy { !$0.message.isEmpty }, "a field error without a message")
    _ = (problem.reason, problem.hashValue)
    return 0
}
