/// Routes any thrown error through an ``ErrorHandlerChain`` to a presenter: the app-wide
/// `handle(error)` and `do { try ... }` of MungoHealer, for code outside a publisher pipeline.
///
/// The presenter shows the presentation and, when the user taps, calls the option's
/// `choose()`; an error whose presentation has an ``ErrorPresentation/automaticChoice`` (an
/// expired session, by default) is not shown: the choice is made at once.
///
/// ```swift
/// let router = ErrorRouter(chain: ErrorHandlerChain().logging { error, _ in logger.error("\(error)") }) { presentation in
///     alert.show(presentation)   // one button per option; a tap calls option.choose()
/// }
/// router.do {
///     avatar = try fetchImage(at: user.avatarPath)
/// }
/// ```
public struct ErrorRouter: Sendable {
    /// Decides how each error is presented.
    public var chain: ErrorHandlerChain
    /// Shows a presentation; runs the chosen option's `choose()` when the user answers.
    public var present: @Sendable (ErrorPresentation) -> Void

    /// Makes a router that presents through `present`.
    ///
    /// ```swift
    /// let router = ErrorRouter(chain: chain) { presentation in print(presentation) }
    /// ```
    public init(chain: ErrorHandlerChain = ErrorHandlerChain(), present: @escaping @Sendable (ErrorPresentation) -> Void) {
        self.chain = chain
        self.present = present
    }

    /// Presents `error`, or makes its automatic choice.
    ///
    /// ```swift
    /// do { try save() } catch { router.handle(error) }
    /// ```
    public func handle(_ error: any Error) {
        let presentation = chain.presentation(for: error)
        if let automatic = presentation.automaticChoice {
            _ = automatic.choose()
        } else {
            present(presentation)
        }
    }

    /// Runs `body` and returns its result, or `nil` after handing what it threw to
    /// ``handle(_:)``: the `do { } catch { handle(error) }` in one call.
    ///
    /// ```swift
    /// router.do { try login(userName, password) }
    /// let image = router.do { try fetchImage(at: path) }   // nil when it failed
    /// ```
    @discardableResult
    public func `do`<Value>(_ body: () throws -> Value) -> Value? {
        do {
            return try body()
        } catch {
            handle(error)
            return nil
        }
    }
}
