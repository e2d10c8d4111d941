// The typed-client demo: starts the catalogue server in-process on a free loopback port and
// runs each call of CatalogClient against it, printing what came back and, for each failure, what
// recover(through:) presented and what the scripted user chose; the account calls start with an
// expired token, which the client's Authenticator refreshes once. Exits with 0 when every call did
// what it should.
//
//     swift run --package-path Examples catalog-demo

import CatalogClient
import CatalogServer
import Dispatch
import Foundation
import Synchronization

let ready = DispatchSemaphore(value: 0)
let boundPort = Mutex(0)
let app = CatalogServer.application(
    port: 0,
    onRunning: { port in
        boundPort.withLock { $0 = port }
        ready.signal()
    })
Task.detached { try await app.runService() }  // off the main thread, which waits below
guard ready.wait(timeout: .now() + 60) == .success else {
    print("FAILED: the embedded server did not start")
    exit(1)
}
let baseURL = URL(string: "http://127.0.0.1:\(boundPort.withLock { $0 })")!
print("embedded catalog-server listening on \(baseURL.absoluteString)")
exit(CatalogDemo(baseURL: baseURL).run() ? 0 : 1)
