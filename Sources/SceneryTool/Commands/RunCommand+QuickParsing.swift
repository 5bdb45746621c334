import ArgumentParser

/// `run`'s arguments read without the argument parser, for the forms people type.
///
/// The argument parser builds each command's options by reflection, three times a parse;
/// for `scenery run user-profile --viewer 1 --arg user=1` that was a seventh of the process's
/// time (`BENCHMARKS.md`, "Cold start"). `run` takes only options with a value, so the
/// usual forms are read here in a loop: the scene, then `--name value` or `--name=value`
/// for any of ``options``. Anything else — help, a short option, `--`, a value that looks
/// like an option, a single-value option given twice, a value the option does not take, or
/// arguments that fail the command's checks — returns `nil`, and the argument parser reads
/// the arguments as before (and explains what is wrong). `QuickRunParsingTests` holds that
/// both readings give the same command for every option.
enum QuickRunParsing {
    /// How an option of `run` takes its value.
    enum Kind {
        /// One value; given twice, the argument parser decides.
        case single
        /// A value each time it is given, in order.
        case repeated
        /// One value that may start with a dash (`--width -3` reaches the range check).
        case unconditional
    }

    /// Every option of `run`, by its long name.
    static let options: [String: Kind] = [
        "viewer": .single, "arg": .repeated, "arm": .repeated, "visitor": .single, "locale": .single,
        "format": .single, "theme": .single, "select": .repeated, "width": .unconditional, "rows": .single,
        "scenes": .single, "cache": .single, "database": .single, "lock-timeout": .single,
        "fail": .repeated, "latency": .repeated, "impressions": .single,
    ]

    /// The command for `arguments` (those after `run`), or `nil` when the argument parser
    /// must read them.
    static func command(from arguments: some Sequence<String>) -> RunCommand? {
        guard let (scene, values) = read(Array(arguments)) else { return nil }
        return command(scene: scene, values: values)
    }

    /// The scene and each option's values, or `nil` for a form this reader leaves alone.
    private static func read(_ arguments: [String]) -> (scene: String, values: [String: [String]])? {
        var scene: String?
        var values: [String: [String]] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                guard scene == nil, !argument.isEmpty else { return nil }
                scene = argument
                continue
            }
            guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
            let body = argument.dropFirst(2)
            let name: String
            let value: String
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
                guard !value.isEmpty else { return nil }
            } else {
                name = String(body)
                guard index < arguments.endIndex else { return nil }
                value = arguments[index]
                index += 1
            }
            guard let kind = options[name] else { return nil }
            // A lone dash is a value (standard output, for `--impressions -`).
            if kind != .unconditional, value.hasPrefix("-"), value != "-" { return nil }
            if kind != .repeated, values[name] != nil { return nil }
            values[name, default: []].append(value)
        }
        guard let scene else { return nil }
        return (scene, values)
    }

    /// The command with every option set (an option left unset would stop the command when
    /// read), or `nil` when a value does not convert or a check fails.
    private static func command(scene: String, values: [String: [String]]) -> RunCommand? {
        func one(_ name: String) -> String? { values[name]?.last }
        func all(_ name: String) -> [String] { values[name] ?? [] }

        var context = ContextOptions()
        context.scene = scene
        context.viewer = one("viewer")
        context.arguments = all("arg")
        context.arms = all("arm")
        context.visitor = one("visitor")
        context.locale = one("locale")

        var width = WidthOption()
        width.width = one("width")
        var rows = RowsOption()
        rows.text = one("rows")

        var scenes = SceneOptions()
        scenes.directory = one("scenes")
        scenes.cache = one("cache")
        var database = DatabaseOptions()
        database.database = one("database")
        guard let lockTimeout = one("lock-timeout").map(Double.init) ?? 30 else { return nil }
        database.lockTimeout = lockTimeout
        var faults = FaultOptions()
        faults.failures = all("fail")
        faults.latencies = all("latency")
        var session = SessionOptions()
        session.impressions = one("impressions")

        var command = RunCommand()
        guard let format = one("format").map(RunCommand.Format.init(rawValue:)) ?? .text else { return nil }
        command.format = format
        command.theme = one("theme")
        command.selections = all("select")
        do {
            // The checks the argument parser runs, each group's and the command's.
            try context.validate()
            try width.validate()
            try rows.validate()
            try scenes.validate()
            try database.validate()
            try faults.validate()
            session.scenes = scenes
            session.database = database
            session.faults = faults
            command.context = context
            command.width = width
            command.rows = rows
            command.options = session
            try command.validate()
        } catch {
            return nil
        }
        return command
    }
}
