import Foundation

extension RecoveryOption {
    /// The options of an error written for Foundation's `RecoverableError` (which
    /// swift-corelibs-foundation has on Linux too): one per `recoveryOptions` title; choosing
    /// one calls `attemptRecovery(optionIndex:)`, and a successful recovery tries again, a
    /// failed one lets the error through. The first is the recommended one.
    ///
    /// ```swift
    /// struct Offline: RecoverableError {
    ///     var recoveryOptions: [String] { ["Go Online", "Stay Offline"] }
    ///     func attemptRecovery(optionIndex: Int) -> Bool { optionIndex == 0 && network.connect() }
    /// }
    /// let options = RecoveryOption.options(for: Offline())   // Go Online (recommended), Stay Offline
    /// ```
    public static func options(for error: some RecoverableError) -> [RecoveryOption] {
        error.recoveryOptions.enumerated().map { index, title in
            RecoveryOption(title: title, role: index == 0 ? .recommended : .normal) {
                error.attemptRecovery(optionIndex: index) ? .tryAgain : .fail
            }
        }
    }
}
