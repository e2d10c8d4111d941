// The reference sign-up server. Usage: signup-server [--host HOST] [--port PORT]
// (loopback and 8080 by default).

import Foundation
import SignUpServer

var host = "127.0.0.1"
var port = 8080
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--host": host = arguments.next() ?? host
    case "--port": port = arguments.next().flatMap(Int.init) ?? port
    default:
        print("usage: signup-server [--host HOST] [--port PORT]")
        exit(2)
    }
}
let address = host
let app = SignUpServer.application(
    host: address, port: port,
    onRunning: { port in
        print("signup-server listening on http://\(address):\(port)")
    })
try await app.runService()
