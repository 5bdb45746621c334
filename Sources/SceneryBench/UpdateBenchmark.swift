import Scenery

/// A one-row change in a long list: the scene renders the row, diffs it, replaces it in its
/// copy of the host's tree and sends one patch; a host applies it to its `PatchableTree`.
enum UpdateBenchmark {
    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var table = Table(
            "One-row change in a long list",
            header: ["rows", "path", "min", "median", "patches", "target"])
        for count in [1_000, 10_000, 100_000] {
            let counter = UpdateCounter()
            let holder = Holder()
            var registry = SceneRegistry()
            registry.register(LongListModule.self) { parameters, context in
                let module = try LongListModule(parameters: parameters, context: context)
                holder.module.withLock { $0 = module }
                return module
            }
            registry.addScene(id: "long", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": \#(count) } } ] }"#)
            let scene = try await registry.assemble("long", for: SceneContext(viewer: nil), host: NullHost(counter: counter))
            let tree = PatchableTree(await scene.takeBaseline().node)
            let list = holder.module.withLock { $0 }!
            var row = 0
            let rowOnly = await Measure.repeated(rounds: options.rounds(200)) {
                row = (row + 7919) % count
                await list.like(row, rowOnly: true)
            }
            _ = counter.take()
            await list.like(count / 2, rowOnly: true)
            let patches = counter.take()
            let update = counter.lastUpdate()!
            let hostSide = Measure.repeated(rounds: options.rounds(200)) { try! tree.apply(update.patches) }
            let target = count == 100_000 ? "≤ 30 µs: \(verdict(rowOnly.median <= 30e-6))" : ""
            table.add(
                "\(count)", "scene: render the row, diff, replace, send", Measure.format(rowOnly.minimum), Measure.format(rowOnly.median), "\(patches)", target)
            table.add("", "host: PatchableTree.apply", Measure.format(hostSide.minimum), Measure.format(hostSide.median), "\(update.patches.count)", "")
            if count <= 10_000 {
                let whole = await Measure.repeated(rounds: options.rounds(count >= 10_000 ? 5 : 15)) {
                    row = (row + 7919) % count
                    await list.like(row, rowOnly: false)
                }
                _ = counter.take()
                await list.like(count / 3, rowOnly: false)
                table.add(
                    "", "for comparison: render the whole list and diff", Measure.format(whole.minimum), Measure.format(whole.median),
                    "\(counter.take())", String(format: "%.0f× the row path", whole.median / rowOnly.median))
            }
            await scene.leave()
        }
        table.notes.append(
            "The row path should not grow with the number of rows: the scene finds the row by its path index and "
                + "replaces it in place in its frame; the host finds the element by id.")
        return table
    }
}
