/// A question the host must answer before an event goes on: "Unfollow Alice?".
///
/// Scene-file rules and modules ask for confirmations; the host shows them (a terminal
/// prompt, an alert, a test script's answer) through `SceneHost.confirm(_:)`.
public struct Confirmation: Sendable, Hashable, Codable {
    /// The question.
    public var title: String
    /// More detail, if any.
    public var message: String?
    /// The label of the accepting choice.
    public var confirmLabel: String
    /// The label of the declining choice.
    public var cancelLabel: String
    /// Whether accepting destroys or ends something (unfollow, delete): hosts make the
    /// accepting choice look so (the browser paints it red), and never the default.
    public var isDestructive: Bool

    /// Creates a confirmation.
    public init(title: String, message: String? = nil, confirmLabel: String = "OK", cancelLabel: String = "Cancel", isDestructive: Bool = false) {
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.isDestructive = isDestructive
    }

    private enum CodingKeys: String, CodingKey {
        case title, message, confirmLabel, cancelLabel, isDestructive
    }

    /// Reads a confirmation; one without `isDestructive` is not destructive.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        confirmLabel = try container.decode(String.self, forKey: .confirmLabel)
        cancelLabel = try container.decode(String.self, forKey: .cancelLabel)
        isDestructive = try container.decodeIfPresent(Bool.self, forKey: .isDestructive) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encode(confirmLabel, forKey: .confirmLabel)
        try container.encode(cancelLabel, forKey: .cancelLabel)
        if isDestructive { try container.encode(true, forKey: .isDestructive) }
    }
}
