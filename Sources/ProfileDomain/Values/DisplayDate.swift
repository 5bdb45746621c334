import Foundation

/// Dates as the profile modules show them: `2026-01-27 09:00`, in UTC unless told
/// otherwise, the same on every machine.
public enum DisplayDate {
    /// The date as `yyyy-MM-dd HH:mm`.
    public static func string(from date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
