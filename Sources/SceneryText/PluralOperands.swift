/// A number as CLDR's plural rules see it: its value and the digits it is shown with.
///
/// "1" and "1.0" differ in English ("1 blog", "1.0 blogs"), so the operands come from
/// the number as written, not only its value.
///
/// ```swift
/// PluralOperands(1.5, fractionDigits: 2)  // n 1.5, i 1, v 2, w 1, f 50, t 5
/// ```
package struct PluralOperands: Sendable, Hashable {
    /// The absolute value.
    package var n: Double
    /// The integer digits of `n`.
    package var i: Int
    /// How many fraction digits are shown, with trailing zeros.
    package var v: Int
    /// How many fraction digits are shown, without trailing zeros.
    package var w: Int
    /// The fraction digits shown, with trailing zeros, as a number.
    package var f: Int
    /// The fraction digits shown, without trailing zeros, as a number.
    package var t: Int
    /// The exponent of a compact notation (always 0 here: Scenery writes numbers out).
    package var e: Int = 0

    /// The operands of a whole number.
    package init(_ value: Int) {
        let magnitude = value.magnitude > UInt(Int.max) ? Int.max : Int(value.magnitude)
        n = Double(magnitude)
        i = magnitude
        v = 0
        w = 0
        f = 0
        t = 0
    }

    /// The operands of a number shown with `fractionDigits` digits after the point
    /// (rounded as it is shown); with `nil`, with as many as it needs, up to 6.
    package init(_ value: Double, fractionDigits: Int? = nil) {
        let magnitude = value.isFinite ? abs(value) : 0
        let shown = min(max(fractionDigits ?? Self.digitsNeeded(magnitude), 0), 6)
        var scale = 1
        for _ in 0..<shown { scale *= 10 }
        let scaled = (magnitude * Double(scale)).rounded()
        let whole = scaled < Double(Int.max) ? Int(scaled) : Int.max
        i = whole / scale
        f = whole % scale
        v = shown
        var trimmed = f
        var trimmedDigits = shown
        while trimmedDigits > 0, trimmed % 10 == 0 {
            trimmed /= 10
            trimmedDigits -= 1
        }
        t = trimmed
        w = trimmedDigits
        n = Double(i) + (scale > 1 ? Double(f) / Double(scale) : 0)
    }

    private static func digitsNeeded(_ value: Double) -> Int {
        var digits = 0
        var scaled = value
        while digits < 6, scaled.rounded() != scaled {
            scaled *= 10
            digits += 1
        }
        return digits
    }

    /// The value of an operand named in a rule (`n`, `i`, `v`, `w`, `f`, `t`, `e`, `c`).
    func value(of operand: Character) -> Double {
        switch operand {
        case "i": Double(i)
        case "v": Double(v)
        case "w": Double(w)
        case "f": Double(f)
        case "t": Double(t)
        case "e", "c": Double(e)
        default: n
        }
    }
}
