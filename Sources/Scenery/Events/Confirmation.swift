/// A question the host must answer before an event goes on: "Unfollow Alice?".
///
/// Scene-file rules and modules ask for confirmations; the host shows them (a terminal
/// prompt, an alert, a test script's answer) through ``SceneHost/confirm(_:)``.
public struct Confirmation: Sendable, Hashable, Codable {
    /// The question.
    public var title: String
    /// More detail, if any.
    public var message: String?
    /// The label of the accepting choice.
    public var confirmLabel: String
    /// The label of the declining choice.
    public var cancelLabel: String

    /// Creates a confirmation.
    public init(title: String, message: String? = nil, confirmLabel: String = "OK", cancelLabel: String = "Cancel") {
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
    }
}
