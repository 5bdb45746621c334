import Foundation

/// Timing helpers: the median of several runs, in seconds.
enum Measure {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Runs `body` `runs` times (after one warm-up unless told otherwise) and returns the median.
    static func median(runs: Int, warmUp: Bool = true, _ body: () -> Void) -> Double {
        if warmUp { body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<runs { samples.append(seconds(clock.measure(body))) }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func median(runs: Int, warmUp: Bool = true, _ body: () async -> Void) async -> Double {
        if warmUp { await body() }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            await body()
            samples.append(seconds(clock.now - start))
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Peak resident memory of this process, in MiB.
    ///
    /// On Linux this reads `VmHWM` from `/proc/self/status`: `getrusage`'s `ru_maxrss`
    /// survives `fork` and `exec`, so a child would report its parent's peak.
    static var peakMemoryMiB: Double {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        {
            return kilobytes / 1024
        }
        return 0
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576  // bytes on macOS
        #endif
    }

    static func format(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.1f µs", seconds * 1e6)
    }
}

/// A plain-text table, columns padded to their widest cell.
struct Table {
    var title: String
    var header: [String]
    var rows: [[String]] = []

    mutating func add(_ row: String...) { rows.append(row) }

    func render() -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
        }
        return (["\n## \(title)", "", line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")] + rows.map(line))
            .joined(separator: "\n")
    }
}
