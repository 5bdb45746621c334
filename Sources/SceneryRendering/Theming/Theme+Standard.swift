extension Theme {
    /// The light theme built into the core: what a page is drawn with when the registry has
    /// no theme files (the bundled `Scenes/light.tokens.json` gives the same values).
    package static let standard = Theme(
        name: "light",
        colors: [
            .surface: rgb(0xFAFAFA), .surfaceRaised: rgb(0xFFFFFF), .text: rgb(0x1D1D1F), .textMuted: rgb(0x595959),
            .textDisabled: rgb(0x6E6E73), .border: rgb(0xD8D8DC), .divider: rgb(0xEEEEEE), .accent: rgb(0x0058D0),
            .onAccent: rgb(0xFFFFFF), .danger: rgb(0xB00012), .onDanger: rgb(0xFFFFFF), .dangerSurface: rgb(0xFFF0F0),
            .dangerText: rgb(0x8A0010), .control: rgb(0xF2F2F7), .controlPressed: rgb(0xE0E0E6), .controlBorder: rgb(0x8E8E93),
            .selected: rgb(0x1D1D1F), .onSelected: rgb(0xFFFFFF), .avatar: rgb(0x33507A), .onAvatar: rgb(0xFFFFFF),
            .highlight: rgb(0xFFF3B0),
        ],
        dimensions: [
            .spacingSmall: Dimension(4), .spacingMedium: Dimension(8), .spacingLarge: Dimension(16),
            .radiusSmall: Dimension(6), .radiusMedium: Dimension(10),
            .fontSizeCaption: Dimension(13), .fontSizeBody: Dimension(15), .fontSizeHeading: Dimension(16),
            .fontSizeTitle: Dimension(20), .fontSizeDisplay: Dimension(26),
        ])

    private static func rgb(_ value: Int) -> Color {
        Color(red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255, blue: Double(value & 0xFF) / 255)
    }
}
