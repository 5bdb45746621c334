import Foundation

/// The samples of one contender, in seconds, with the figures a table prints.
struct Samples {
    var seconds: [Double] = []

    var minimum: Double { seconds.min() ?? .nan }
    var median: Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    /// How far the slowest run is from the fastest, as a fraction of the fastest.
    var spread: Double { ((seconds.max() ?? .nan) - minimum) / minimum }
}

/// Timing helpers. Contenders run interleaved (A, B, A, B, …) after one warm-up each, so a
/// change of machine load during a run touches every contender alike.
enum Measure {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Times each body `rounds` times, alternating between them.
    static func interleaved(rounds: Int, warmUp: Bool = true, _ bodies: [() -> Void]) -> [Samples] {
        if warmUp { for body in bodies { body() } }
        let clock = ContinuousClock()
        var samples = [Samples](repeating: Samples(), count: bodies.count)
        for _ in 0..<rounds {
            for (index, body) in bodies.enumerated() { samples[index].seconds.append(seconds(clock.measure(body))) }
        }
        return samples
    }

    /// Times each async body `rounds` times, alternating between them.
    static func interleaved(rounds: Int, warmUp: Bool = true, _ bodies: [() async -> Void]) async -> [Samples] {
        if warmUp { for body in bodies { await body() } }
        let clock = ContinuousClock()
        var samples = [Samples](repeating: Samples(), count: bodies.count)
        for _ in 0..<rounds {
            for (index, body) in bodies.enumerated() {
                let start = clock.now
                await body()
                samples[index].seconds.append(seconds(clock.now - start))
            }
        }
        return samples
    }

    /// What this benchmark executable prints when run again with `arguments` (a probe that
    /// must measure in a fresh process), trimmed.
    static func inFreshProcess(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(filePath: CommandLine.arguments[0])
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Times one body `rounds` times.
    static func repeated(rounds: Int, _ body: () -> Void) -> Samples {
        withoutActuallyEscaping(body) { interleaved(rounds: rounds, [$0])[0] }
    }

    /// Times one async body `rounds` times.
    static func repeated(rounds: Int, _ body: () async -> Void) async -> Samples {
        await withoutActuallyEscaping(body) { await interleaved(rounds: rounds, [$0])[0] }
    }

    /// Resident memory of this process now, in KiB (Linux; 0 elsewhere).
    static var residentMemoryKiB: Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
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
        guard seconds.isFinite else { return "—" }
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.1f µs", seconds * 1e6)
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
}

/// The machine and how busy it is.
enum Machine {
    static var description: String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        return
            "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }

    /// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` gives them.
    static var loadAverage: String {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
            return text.split(separator: " ").prefix(3).joined(separator: " ")
        #else
            var loads = [Double](repeating: 0, count: 3)
            guard getloadavg(&loads, 3) == 3 else { return "unknown" }
            return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
        #endif
    }
}

/// A plain-text table, columns padded to their widest cell.
struct Table {
    var title: String
    var header: [String]
    var rows: [[String]] = []
    var notes: [String] = []

    init(_ title: String, header: [String]) {
        self.title = title
        self.header = header
    }

    mutating func add(_ row: String...) { rows.append(row) }

    func render() -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
                .replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        let table = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")] + rows.map(line)
        return (["## \(title)", ""] + table + (notes.isEmpty ? [] : [""] + notes)).joined(separator: "\n")
    }
}

/// Whether a measured figure meets its target, as a table cell.
func verdict(_ met: Bool) -> String { met ? "met" : "NOT MET" }
