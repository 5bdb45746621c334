/// One of CLDR's plural categories, which a language's plural rules sort numbers into.
///
/// English needs `one` and `other` ("1 blog", "2 blogs"); Polish adds `few` and `many`;
/// Arabic uses all six; Chinese and Japanese only `other`.
package enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case zero, one, two, few, many, other

    package var description: String { rawValue }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
