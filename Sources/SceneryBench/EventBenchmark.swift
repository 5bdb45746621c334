import Foundation
import Scenery

/// What a typed event costs: a control's descriptor per rendered row, and a handler's decode.
enum EventBenchmark {
    struct Like: Codable, Sendable {
        var blog: Int64
        var liked: Bool?
    }

    static let like = EventKind("blog.like", payload: Like.self)

    static func run(_ options: BenchmarkOptions) -> Table {
        var table = Table(
            "Typed events: 1,000 like buttons", header: ["contender", "min", "median", "per event", "vs dictionary"])
        let count = 1_000
        var sink = 0
        let samples = Measure.interleaved(
            rounds: options.rounds(15),
            [
                {
                    for id in 0..<count {
                        sink &+= EventDescriptor("blog.like", payload: ["blog": .int(id), "liked": .bool(id % 2 == 0)]).payload.count
                    }
                },
                {
                    for id in 0..<count { sink &+= like.descriptor(Like(blog: Int64(id), liked: id % 2 == 0)).payload.count }
                },
                {
                    for id in 0..<count {
                        let data = try? JSONEncoder().encode(Like(blog: Int64(id), liked: id % 2 == 0))
                        let value = data.flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
                        if case .object(let members) = value { sink &+= members.count }
                    }
                },
                {
                    for id in 0..<count {
                        let event = Event("blog.like", from: "row.like", payload: ["blog": .int(id), "liked": .bool(true)])
                        sink &+= Int((try? like.payload(of: event))?.blog ?? 0)
                    }
                },
            ])
        precondition(sink != 0)
        let names = [
            "EventDescriptor with a dictionary literal", "EventKind.descriptor (JSONValueEncoder)", "the same through JSONEncoder + JSONDecoder",
            "EventKind.payload(of:) (a handler's decode)",
        ]
        for (name, sample) in zip(names, samples) {
            table.add(
                name, Measure.format(sample.minimum), Measure.format(sample.median), String(format: "%.2f µs", sample.median / Double(count) * 1e6),
                String(format: "%.1f×", sample.median / samples[0].median))
        }
        table.notes.append("A control's descriptor is made for every rendered row; a payload is decoded once per event a person sends.")
        return table
    }
}
