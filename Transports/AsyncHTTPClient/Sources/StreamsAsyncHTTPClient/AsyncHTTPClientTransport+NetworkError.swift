import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import StreamsNetworking

extension AsyncHTTPClientTransport {
    /// `error`, thrown by AsyncHTTPClient or SwiftNIO while sending `request`, as the
    /// ``NetworkError/transport(_:request:)`` that URLSession reports for the same failure, so
    /// that the retry treats both transports alike:
    ///
    /// | failure | `URLError` code | before the request was sent |
    /// | --- | --- | --- |
    /// | connection refused, connect timeout, no connection from the pool | `cannotConnectToHost` | yes |
    /// | host not found | `cannotFindHost` | yes |
    /// | deadline (`URLRequest.timeoutInterval`), read or write timeout | `timedOut` | no |
    /// | connection closed or reset during the exchange | `networkConnectionLost` | no |
    /// | a reply that is not HTTP | `badServerResponse` | no |
    /// | TLS handshake or certificate | `secureConnectionFailed` | no |
    /// | cancelled | `cancelled` | no |
    /// | anything else | `unknown` | no |
    ///
    /// ```swift
    /// let error = AsyncHTTPClientTransport.networkError(HTTPClientError.deadlineExceeded, request: request)
    /// // .transport(URLError(.timedOut), request: GET)
    /// ```
    public static func networkError(_ error: any Error, request: URLRequest) -> NetworkError {
        if let error = error as? NetworkError { return error }
        let code = urlErrorCode(for: error)
        let described = String(describing: error)
        let urlError = URLError(code, userInfo: [NSLocalizedDescriptionKey: described, NSUnderlyingErrorKey: error])
        return .transport(urlError, request: SentRequest(request))
    }

    /// The `URLError` code URLSession reports for the failure `error` stands for.
    static func urlErrorCode(for error: any Error) -> URLError.Code {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .getConnectionFromPoolTimeout: return .cannotConnectToHost
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timedOut
            case .remoteConnectionClosed: return .networkConnectionLost
            case .cancelled: return .cancelled
            case .tlsHandshakeTimeout: return .secureConnectionFailed
            case .redirectLimitReached, .redirectCycleDetected: return .httpTooManyRedirects
            case .invalidURL, .emptyHost, .emptyScheme: return .badURL
            default: return .unknown
            }
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil) {
                return .cannotFindHost
            }
            return .cannotConnectToHost
        case is SocketAddressError:
            return .cannotFindHost
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .cannotConnectToHost
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .networkConnectionLost
            default: return .unknown
            }
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH: return .cannotConnectToHost
            case ECONNRESET, EPIPE, ECONNABORTED: return .networkConnectionLost
            case ETIMEDOUT: return .timedOut
            default: return .unknown
            }
        case is CancellationError:
            return .cancelled
        default:
            let type = String(reflecting: Swift.type(of: error))
            if type.hasPrefix("NIOSSL.") { return .secureConnectionFailed }
            if type.hasPrefix("NIOHTTP1.") { return .badServerResponse }
            return .unknown
        }
    }
}
