import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A stand-in for swift-openapi-urlsession's transport, so that the guide's example compiles
/// as written: it sends nothing and hands each request to the scripted `next` of the test.
struct URLSessionTransport: ClientTransport {
    let next: ScriptedNext

    init(_ next: ScriptedNext = ScriptedNext([])) {
        self.next = next
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        try await next.send(request, body: body, baseURL: baseURL)
    }
}
