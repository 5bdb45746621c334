import Foundation
import ProfileDemoDomain
import Testing

@Suite struct DisplayDateTests {
    static func calendarString(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%d-%02d-%02d %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }

    @Test func formatsLikeTheGregorianCalendar() {
        #expect(DisplayDate.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00")
        #expect(DisplayDate.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31 23:59")
        #expect(DisplayDate.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29 00:00")
        // Random instants from 1600 to 9999 (before October 1582, Foundation's calendar is the
        // Julian one; DisplayDate follows ISO 8601's proleptic Gregorian calendar), in UTC and
        // in zones either side of it.
        var generator = SystemRandomNumberGenerator()
        let zones = [TimeZone.gmt, TimeZone(secondsFromGMT: 5 * 3_600 + 1_800)!, TimeZone(secondsFromGMT: -10 * 3_600)!]
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -11_676_096_000..<253_402_300_799, using: &generator).rounded(.down))
            for zone in zones {
                #expect(DisplayDate.string(from: date, timeZone: zone) == Self.calendarString(date, zone), "\(date.timeIntervalSince1970) in \(zone)")
            }
        }
    }

    @Test func datesTooFarOutStillFormat() {
        #expect(!DisplayDate.string(from: .distantFuture).isEmpty)
        #expect(!DisplayDate.string(from: Date(timeIntervalSince1970: 1e14)).isEmpty)
    }
}
