import Foundation

/// Dates as the profile modules show them: `2026-01-27 09:00`, in UTC unless told
/// otherwise, the same on every machine.
public enum DisplayDate {
    /// The date as `yyyy-MM-dd HH:mm`.
    ///
    /// Computed with integer arithmetic on the proleptic Gregorian calendar, as ISO 8601 has
    /// it (no calendar object, no ICU): a profile page formats many dates, and a command-line run pays for
    /// every start-up cost.
    public static func string(from date: Date, timeZone: TimeZone = .gmt) -> String {
        let instant = date.timeIntervalSince1970.rounded(.down)
        // Beyond ±1.4 million years the arithmetic below could overflow; no profile has such dates.
        guard instant.isFinite, abs(instant) < 4.5e13 else { return calendarString(from: date, timeZone: timeZone) }
        let seconds = Int64(instant) + Int64(timeZone.secondsFromGMT(for: date))
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60))"
    }

    private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    /// Year, month and day of a day count from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March is 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The same through `Calendar`, for dates too far out for the arithmetic.
    private static func calendarString(from date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
