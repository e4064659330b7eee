import Foundation

/// EXIF date strings to `Date`: DateTimeOriginal (`"YYYY:MM:DD HH:MM:SS"`, a local time with no
/// zone) with OffsetTimeOriginal (`"+HH:MM"`) when the file has it, else read in a given zone.
enum EXIFDate {
    /// The date, or `nil` for a blank, zeroed or malformed value (cameras write
    /// `"0000:00:00 00:00:00"` or spaces when the clock was never set).
    static func date(_ text: String, offset: String?, defaultZone: TimeZone) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let dateSeparators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-")]
        guard dateSeparators.contains(bytes[4]), dateSeparators.contains(bytes[7]),
              bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 61 else { return nil }
        let local = (daysSince1970(year: year, month: month, day: day) * 86_400) + hour * 3_600 + minute * 60 + second
        if let offset, let seconds = offsetSeconds(offset) {
            return Date(timeIntervalSince1970: Double(local - seconds))
        }
        // A local time in `defaultZone`: its offset at that instant (refined once for DST).
        let guess = local - defaultZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local)))
        let refined = local - defaultZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(guess)))
        return Date(timeIntervalSince1970: Double(refined))
    }

    /// `"+HH:MM"` / `"-HH:MM"` in seconds east of UTC, or `nil`.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 6, bytes[3] == UInt8(ascii: ":") else { return nil }
        let sign: Int
        switch bytes[0] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        let digits = [bytes[1], bytes[2], bytes[4], bytes[5]]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let values = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hours = values[0] * 10 + values[1], minutes = values[2] * 10 + values[3]
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (the "days from civil" method).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
