import Foundation
import SceneryText

extension Theme {
    /// A colour in sRGB, each component from 0 to 1: a DTCG `color` value.
    ///
    /// ```swift
    /// let ink = Theme.Color(hex: "#1d1d1f")!
    /// ink.contrastRatio(with: Theme.Color(hex: "#ffffff")!)   // 16.8
    /// ```
    package struct Color: Sendable, Hashable, CustomStringConvertible {
        /// Red, from 0 to 1.
        package var red: Double
        /// Green, from 0 to 1.
        package var green: Double
        /// Blue, from 0 to 1.
        package var blue: Double
        /// Opacity, from 0 (transparent) to 1.
        package var alpha: Double

        /// A colour from its components, each clamped to 0…1.
        package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
            func clamped(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }
            self.red = clamped(red)
            self.green = clamped(green)
            self.blue = clamped(blue)
            self.alpha = clamped(alpha)
        }

        /// A colour written `#rgb`, `#rrggbb` or `#rrggbbaa`; `nil` for anything else.
        package init?(hex: String) {
            var digits = Array(hex.utf8)
            guard digits.first == UInt8(ascii: "#") else { return nil }
            digits.removeFirst()
            if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
            guard digits.count == 6 || digits.count == 8,
                let bytes = Hex.bytes(String(decoding: digits, as: UTF8.self))
            else { return nil }
            self.init(
                red: Double(bytes[0]) / 255, green: Double(bytes[1]) / 255, blue: Double(bytes[2]) / 255,
                alpha: bytes.count == 4 ? Double(bytes[3]) / 255 : 1)
        }

        /// The colour as `#rrggbb` (`#rrggbbaa` when not opaque).
        package var hex: String {
            let bytes = [red, green, blue].map { UInt8(($0 * 255).rounded()) }
            let alphaByte = UInt8((alpha * 255).rounded())
            return "#" + Hex.text(alphaByte == 255 ? bytes : bytes + [alphaByte])
        }

        /// The colour as CSS writes it.
        package var css: String { hex }

        package var description: String { hex }

        /// WCAG 2.x relative luminance: 0 for black, 1 for white.
        package var relativeLuminance: Double {
            func linear(_ channel: Double) -> Double {
                channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        }

        /// The colour laid over `background` (for a colour that is not opaque).
        package func composited(over background: Color) -> Color {
            guard alpha < 1 else { return self }
            func mix(_ top: Double, _ bottom: Double) -> Double { top * alpha + bottom * (1 - alpha) }
            return Color(red: mix(red, background.red), green: mix(green, background.green), blue: mix(blue, background.blue))
        }

        /// WCAG 2.x contrast ratio with another colour, from 1 (none) to 21 (black on white).
        /// This colour is laid over `other` first if it is not opaque.
        package func contrastRatio(with other: Color) -> Double {
            let top = composited(over: other).relativeLuminance
            let bottom = other.relativeLuminance
            return (max(top, bottom) + 0.05) / (min(top, bottom) + 0.05)
        }
    }

    /// A length: a DTCG `dimension` value in `px` or `rem`.
    package struct Dimension: Sendable, Hashable, CustomStringConvertible {
        /// The units a dimension may have.
        package enum Unit: String, Sendable, Hashable, CaseIterable {
            /// CSS pixels.
            case px
            /// Multiples of the root font size.
            case rem
        }

        /// The number.
        package var value: Double
        /// Its unit.
        package var unit: Unit

        /// A length.
        package init(_ value: Double, _ unit: Unit = .px) {
            self.value = value
            self.unit = unit
        }

        /// The length as CSS writes it: `8px`, `1.5rem`.
        package var css: String {
            let number = value.rounded() == value && value.magnitude < 1e9 ? String(Int(value)) : String(value)
            return number + unit.rawValue
        }

        package var description: String { css }
    }
}
