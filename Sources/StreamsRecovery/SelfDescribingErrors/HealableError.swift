/// An error that carries its own ways out: ``DefaultErrorHandler`` presents its
/// ``healingOptions`` instead of the ones its category would give.
///
/// Give it a `source` (``ErrorSourceProviding``) and a message (`LocalizedError`) to control
/// the rest of the presentation.
///
/// ```swift
/// struct StorageFull: HealableError, LocalizedError {
///     var errorDescription: String? { "Your device is out of space." }
///     var healingOptions: [RecoveryOption] {
///         [RecoveryOption(title: "Free Space", role: .recommended) { openStorageSettings(); return .tryAgain }, .cancel()]
///     }
/// }
/// ```
public protocol HealableError: Error {
    /// The choices offered for this error: at least one.
    var healingOptions: [RecoveryOption] { get }
}
