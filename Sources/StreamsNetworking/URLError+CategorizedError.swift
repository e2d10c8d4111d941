import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// `URLError` knows what a retry can do about it, on Apple platforms and on Linux (where
/// Foundation's networking runs on libcurl and reports some failures with other codes), so that
/// `retry(_:backoff:scheduler:)` retries a plain `URLError` pipeline without a predicate.
///
/// | failure | Apple | Linux | category |
/// | --- | --- | --- | --- |
/// | connection refused | -1004 `cannotConnectToHost` | -1004 | retryable |
/// | connection reset | -1005 `networkConnectionLost` | -1005 | retryable |
/// | closed without a reply | -1005 | -1011 `badServerResponse` ("Empty reply from server") | retryable |
/// | closed mid-body | -1005 | -1 `unknown` ("transfer closed with N bytes remaining to read") | retryable |
/// | timed out | -1001 `timedOut` | -1001 | retryable |
/// | DNS failure | -1003 `cannotFindHost`, -1006 `dnsLookupFailed` | -1003 | retryable |
/// | offline | -1009 `notConnectedToInternet`, -1018, -1019, -1020 | — | retryable |
/// | TLS handshake or certificate | -1200 to -1206 | -1 ("OpenSSL ..."), -1202 | not retryable |
/// | bad URL, unsupported scheme | -1000 `badURL`, -1002 `unsupportedURL` | -1000, -1002 | not retryable |
/// | authentication required | -1013 `userAuthenticationRequired` | — | requires logout |
/// | anything else, including cancelled | | | not retryable |
///
/// Inside a ``NetworkError``, a retryable failure that may have reached the server (all of the
/// above but refused, DNS and offline) is retried only for a request that is safe to repeat
/// (``SentRequest/isSafeToRepeat``).
///
/// ```swift
/// let profile = Deferred { fetchProfile() }        // fails with URLError
///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
/// ```
extension URLError: CategorizedError {
    /// What to do about the failure by default: failures of the connection before a complete
    /// response are retryable, a request that needs credentials requires logout, everything
    /// else (TLS and certificate failures, bad or unsupported URLs, cancellation) is not
    /// retryable. See the table above.
    public var category: ErrorCategory {
        switch code {
        case .timedOut, .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost, .networkConnectionLost,
            .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed, .badServerResponse:
            return .retryable
        case .userAuthenticationRequired:
            return .requiresLogout
        case .unknown:
            return isTransferCutShort ? .retryable : .nonRetryable
        default:
            return .nonRetryable
        }
    }

    /// Whether the request cannot have reached the server: no connection could be made (no
    /// network, no host found, the connection refused). Such a failure may be retried for any
    /// method; a timeout or a connection lost during the exchange may not, since the server may
    /// have acted on the request.
    var failedBeforeSending: Bool {
        switch code {
        case .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost, .notConnectedToInternet, .internationalRoamingOff,
            .callIsActive, .dataNotAllowed:
            true
        default:
            false
        }
    }

    /// Whether the device has no usable network.
    var isOffline: Bool {
        [.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff].contains(code)
    }

    /// Whether this is Linux's report of a connection that broke during the exchange: libcurl
    /// failures that Foundation passes on as `unknown`, recognisable only by libcurl's message.
    var isTransferCutShort: Bool {
        #if canImport(FoundationNetworking)
        let message = localizedDescription
        return Self.cutShortMessages.contains { message.hasPrefix($0) }
        #else
        return false
        #endif
    }

    /// Whether a secure connection could not be set up: a TLS handshake or certificate failure.
    var isSecureConnectionFailure: Bool {
        switch code {
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return true
        case .unknown:
            #if canImport(FoundationNetworking)
            let message = localizedDescription
            return message.hasPrefix("OpenSSL") || message.contains("SSL") || message.contains("TLS")
                || message.contains("certificate")
            #else
            return false
            #endif
        default:
            return false
        }
    }

    /// The beginnings of libcurl's messages for a transfer that the network or the server cut
    /// short (curl's partial-file, receive and send errors).
    static let cutShortMessages = [
        "transfer closed", "Recv failure", "Send failure", "Failure when receiving data", "Failed sending data",
    ]
}
