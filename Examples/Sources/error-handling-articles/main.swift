// The error-handling articles' own examples, on a console: each alert becomes a line saying what
// the user was shown (title, message, buttons) and which button a scripted user taps.
//
//     swift run --package-path Examples error-handling-articles

import ErrorHandlingArticles

let say: @Sendable (String) -> Void = { print($0) }

print("1. Propagating user-facing errors: categories and a chain of handlers\n")
print("Offline for three requests: the loader retries twice by itself, then the user taps Try Again once")
let offline = PropagatingErrorsArticle.load(failingWith: .deviceIsOffline, failures: 3, answers: ["Try Again"], print: say)
print("  -> \(offline.requests) requests, loaded \(offline.conversations), \(offline.ending)\n")
print("Session expired: the user is logged out without being asked")
let expired = PropagatingErrorsArticle.load(failingWith: .unauthorized, failures: 1, print: say)
print("  -> shown \(expired.shown.count) messages, logged out: \(expired.loggedOut), \(expired.ending)\n")
print("A deleted conversation: the screen's own handler answers before the app's")
let deleted = PropagatingErrorsArticle.load(failingWith: .resourceNotFound, failures: 1, print: say)
print("  -> \(deleted.ending)\n")

print("2. RecoverableError: the error's own title, message and options, and a minimum request time\n")
print("A fast failure, Try Again, then a fast success")
let upload = RecoverableErrorArticle.upload(failures: 1, answers: ["Try Again"], print: say)
print("  -> uploads started at \(upload.uploads.joined(separator: ", "))\n")

print("3. MungoHealer: errors that heal, a router for do/catch, an alert handler that logs\n")
// Kept running so that the console can go on after the fatal error; by default, as in
// MungoHealer, confirming it ends the process.
let app = MungoHealerArticle(answers: ["OK", "Try Again", "OK", "OK"], whenFatalErrorIsConfirmed: .keepRunning, print: say)
print("Logging in without a password")
_ = app.login(userName: "ann", password: "", apiToken: { _, _ in "token" })
print("Loading the avatar while the network is down once")
app.loadAvatarImage(failures: 1)
print("  -> \(app.avatarFetches) fetches, avatar \(app.avatar ?? "none")")
print("Confirming a password that does not match")
app.confirm(password: "secret", confirmation: "secert")
print("Reading settings that are not there")
app.readSettings()
print("  -> the fatal hook ran: \(app.fatalHookRan) (by default the process would end here, as in MungoHealer)")
