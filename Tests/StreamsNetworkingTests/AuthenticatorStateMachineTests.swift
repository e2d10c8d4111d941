import Foundation
@testable import StreamsNetworking
import StreamsTesting
import Testing

/// The authenticator's state machine driven directly: each event's action, including the
/// orderings a loopback test cannot force (a 401 that arrives after the refresh ended).
@Suite("Authenticator state machine")
struct AuthenticatorStateMachineTests {
    static let stale = Credential.bearer("stale")
    static let fresh = Credential.bearer("fresh")
    static let ignore: AuthenticatorStateMachine.Waiter = { _ in }

    @Test func aStoredCredentialIsUsedAtOnce() {
        var machine = AuthenticatorStateMachine(credential: Self.stale)
        guard case .use(let credential, _) = machine.credentialNeeded(Self.ignore) else {
            Issue.record("expected the stored credential")
            return
        }
        #expect(credential == Self.stale)
        #expect(machine.refreshes == 0)
    }

    @Test func rejectionsDuringARefreshWaitAndAllGetItsOutcome() {
        var machine = AuthenticatorStateMachine(credential: Self.stale)
        guard case .refresh(let number, let rejected) = machine.rejected(Self.stale, Self.ignore) else {
            Issue.record("expected a refresh")
            return
        }
        #expect(rejected == Self.stale)
        for _ in 0..<9 {
            guard case .wait = machine.rejected(Self.stale, Self.ignore) else {
                Issue.record("expected to wait")
                return
            }
        }
        guard case .wait = machine.credentialNeeded(Self.ignore) else {
            Issue.record("a new request waits for the refresh too")
            return
        }
        guard case .resume(let waiters, .success(let credential)) = machine.refreshed(number, .success(Self.fresh)) else {
            Issue.record("expected to resume the waiters")
            return
        }
        #expect(waiters.count == 11)
        #expect(credential == Self.fresh)
        #expect(machine.refreshes == 1)
        // Its completion after the value changes nothing.
        guard case .none = machine.refreshed(number, .failure(.invalidResponse)) else {
            Issue.record("only the first outcome counts")
            return
        }
    }

    @Test func aRejectionThatArrivesAfterTheRefreshIsReplayedWithTheNewCredential() {
        var machine = AuthenticatorStateMachine(credential: Self.stale)
        guard case .refresh(let number, _) = machine.rejected(Self.stale, Self.ignore) else {
            Issue.record("expected a refresh")
            return
        }
        _ = machine.refreshed(number, .success(Self.fresh))
        guard case .use(let credential, _) = machine.rejected(Self.stale, Self.ignore) else {
            Issue.record("expected the new credential without a refresh")
            return
        }
        #expect(credential == Self.fresh)
        #expect(machine.refreshes == 1)
        // The new credential rejected in turn: a second refresh.
        guard case .refresh(_, let rejected) = machine.rejected(Self.fresh, Self.ignore) else {
            Issue.record("expected a second refresh")
            return
        }
        #expect(rejected == Self.fresh)
        #expect(machine.refreshes == 2)
    }

    @Test func aRejectionThatArrivesAfterAFailedRefreshFailsAtOnceAndANewRequestRefreshesAgain() {
        var machine = AuthenticatorStateMachine(credential: Self.stale)
        guard case .refresh(let number, _) = machine.rejected(Self.stale, Self.ignore) else {
            Issue.record("expected a refresh")
            return
        }
        let failure = NetworkError.credentialRefreshFailed(reason: "invalid_grant")
        guard case .resume(_, .failure) = machine.refreshed(number, .failure(failure)) else {
            Issue.record("expected the waiters to fail")
            return
        }
        guard case .fail(let error, _) = machine.rejected(Self.stale, Self.ignore),
            case .credentialRefreshFailed = error
        else {
            Issue.record("a late 401 of the same credential fails at once")
            return
        }
        #expect(machine.refreshes == 1)
        guard case .refresh(_, nil) = machine.credentialNeeded(Self.ignore) else {
            Issue.record("a new request asks for a credential again")
            return
        }
        #expect(machine.refreshes == 2)
    }

    @Test func withNoCredentialTheFirstRequestRefreshes() {
        var machine = AuthenticatorStateMachine(credential: nil)
        guard case .refresh(_, nil) = machine.credentialNeeded(Self.ignore) else {
            Issue.record("expected a refresh")
            return
        }
        guard case .wait = machine.credentialNeeded(Self.ignore) else {
            Issue.record("expected to wait")
            return
        }
    }
}
