import Foundation

/// The state of an ``Authenticator``: the credential in use, or the one refresh in flight and
/// the requests waiting for it. A value with no lock and no callouts: each event updates it and
/// returns what the authenticator must do once the lock is released.
///
/// States, and the events that move between them:
/// - `current(credential)`: a credential (or none yet) to send. A request for a credential gets
///   it, or starts a refresh if there is none; a rejection of this very credential starts a
///   refresh (→ `refreshing`); a rejection of an older one gets the current one.
/// - `refreshing(number, waiters)`: a refresh is in flight; every request for a credential and
///   every rejection waits for it. Its end → `current` with the new credential, or → `failed`.
/// - `failed(rejected, error)`: the refresh of `rejected` failed. A request rejected with that
///   same credential (its 401 arrived after the failure) fails at once; a new request, or one
///   rejected with another credential, starts a new refresh (the user may have signed in again).
struct AuthenticatorStateMachine {
    /// What a waiting request is told when the refresh ends.
    typealias Waiter = @Sendable (Result<Credential, NetworkError>) -> Void

    enum State {
        case current(Credential?)
        case refreshing(Int, rejected: Credential?, waiters: [Waiter])
        case failed(rejected: Credential?, NetworkError)
    }

    private(set) var state: State

    /// The number of refreshes started so far; the latest one's number.
    private(set) var refreshes = 0

    init(credential: Credential?) {
        state = .current(credential)
    }

    /// What to do for a request that needs a credential.
    enum CredentialAction {
        /// Send the request with this credential: tell the waiter at once.
        case use(Credential, Waiter)
        /// Start refresh number `number`, of `rejected`; the waiter is kept until it ends.
        case refresh(number: Int, rejected: Credential?)
        /// A refresh is in flight; the waiter is kept until it ends.
        case wait
        /// The refresh of the credential this request was rejected with already failed: tell the
        /// waiter at once.
        case fail(NetworkError, Waiter)
    }

    /// A request needs a credential for the first time.
    mutating func credentialNeeded(_ waiter: @escaping Waiter) -> CredentialAction {
        switch state {
        case .current(let credential?):
            return .use(credential, waiter)
        case .current(nil), .failed:
            return startRefresh(rejected: nil, waiter)
        case .refreshing(let number, let rejected, var waiters):
            waiters.append(waiter)
            state = .refreshing(number, rejected: rejected, waiters: waiters)
            return .wait
        }
    }

    /// The server rejected `rejected` with 401, and the request needs a new credential.
    mutating func rejected(_ rejected: Credential, _ waiter: @escaping Waiter) -> CredentialAction {
        switch state {
        case .current(let credential?) where credential != rejected:
            // Refreshed since this request was sent: the new credential has not been tried yet.
            return .use(credential, waiter)
        case .current:
            return startRefresh(rejected: rejected, waiter)
        case .failed(rejected, let error):
            return .fail(error, waiter)
        case .failed:
            return startRefresh(rejected: rejected, waiter)
        case .refreshing(let number, let rejected, var waiters):
            waiters.append(waiter)
            state = .refreshing(number, rejected: rejected, waiters: waiters)
            return .wait
        }
    }

    private mutating func startRefresh(rejected: Credential?, _ waiter: @escaping Waiter) -> CredentialAction {
        refreshes += 1
        state = .refreshing(refreshes, rejected: rejected, waiters: [waiter])
        return .refresh(number: refreshes, rejected: rejected)
    }

    /// What to do when a refresh ends.
    enum RefreshedAction {
        /// Tell every waiter the outcome.
        case resume([Waiter], Result<Credential, NetworkError>)
        /// That refresh had already ended (a value, then its completion).
        case none
    }

    /// Refresh number `number` ended with `outcome`: a new credential, or the failure every
    /// waiter gets. Only its first outcome counts.
    mutating func refreshed(_ number: Int, _ outcome: Result<Credential, NetworkError>) -> RefreshedAction {
        guard case .refreshing(number, let rejected, let waiters) = state else { return .none }
        switch outcome {
        case .success(let credential): state = .current(credential)
        case .failure(let error): state = .failed(rejected: rejected, error)
        }
        return .resume(waiters, outcome)
    }
}
