extension Message {
    /// How the message uses an argument: the kind of value that use needs.
    package struct ArgumentUse: Sendable, Hashable {
        /// The argument's name.
        package var name: String
        /// The kind of value the use needs: `nil` for a plain `{name}`, which shows any kind.
        package var type: Message.ArgumentType?
        /// How the message uses it, as written: "plural", "number", "date", "select", "text".
        package var form: String
    }

    /// Every use of an argument, in the order written.
    package var argumentUses: [ArgumentUse] {
        var uses: [ArgumentUse] = []
        Self.collectUses(parts, into: &uses)
        return uses
    }

    /// The names of the arguments the message uses, each once, in the order first written.
    package var argumentNames: [String] {
        var seen: Set<String> = []
        return argumentUses.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Plurals that lack a case the locale's rules need: the argument and the missing
    /// categories (an `=N` case does not stand in for a category).
    package func missingPluralCategories(for rules: PluralRules) -> [(argument: String, missing: [PluralCategory])] {
        var found: [(argument: String, missing: [PluralCategory])] = []
        Self.collectPlurals(parts) { name, cases in
            let given = Set(
                cases.compactMap { plural -> PluralCategory? in
                    if case .category(let category) = plural.selector { return category }
                    return nil
                })
            let missing = rules.categories.filter { !given.contains($0) }
            if !missing.isEmpty { found.append((name, missing)) }
        }
        return found
    }

    /// Problems of the message against the arguments a module provides: an unknown
    /// argument, or one used as a kind it is not (a plural of a name). Each says what to do.
    package func problems(against provided: [MessageArgumentSpec]) -> [String] {
        var problems: [String] = []
        let names = provided.map(\.name)
        var reported: Set<String> = []
        for use in argumentUses {
            guard let spec = provided.first(where: { $0.name == use.name }) else {
                guard reported.insert(use.name).inserted else { continue }
                let offer = names.isEmpty ? "it takes no arguments" : "it gives \(names.map { "{\($0)}" }.joined(separator: ", "))"
                problems.append("the message uses {\(use.name)}, which the module does not give; \(offer)")
                continue
            }
            if let needed = use.type, needed != spec.type, !(needed == .text && use.form == "select" && spec.type == .number) {
                problems.append("the message uses {\(use.name)} as a \(use.form), but it is a \(spec.type); use it as {\(use.name)}")
            }
        }
        return problems
    }

    /// Arguments the module gives that a translation's message leaves out, compared with
    /// the message it translates (a dropped `{name}` is usually a mistake).
    package func droppedArguments(comparedWith original: Message) -> [String] {
        let mine = Set(argumentNames)
        return original.argumentNames.filter { !mine.contains($0) }
    }

    private static func collectUses(_ parts: [Part], into uses: inout [ArgumentUse]) {
        for part in parts {
            switch part {
            case .text, .pound: break
            case .argument(let name, let style):
                switch style {
                case .plain: uses.append(ArgumentUse(name: name, type: nil, form: "text"))
                case .number: uses.append(ArgumentUse(name: name, type: .number, form: "number"))
                case .date, .time: uses.append(ArgumentUse(name: name, type: .date, form: "date"))
                }
            case .plural(let name, _, let cases):
                uses.append(ArgumentUse(name: name, type: .number, form: "plural"))
                for plural in cases { collectUses(plural.parts, into: &uses) }
            case .select(let name, let cases):
                uses.append(ArgumentUse(name: name, type: .text, form: "select"))
                for choice in cases { collectUses(choice.parts, into: &uses) }
            }
        }
    }

    private static func collectPlurals(_ parts: [Part], _ visit: (String, [PluralCase]) -> Void) {
        for part in parts {
            switch part {
            case .text, .pound, .argument: break
            case .plural(let name, _, let cases):
                visit(name, cases)
                for plural in cases { collectPlurals(plural.parts, visit) }
            case .select(_, let cases):
                for choice in cases { collectPlurals(choice.parts, visit) }
            }
        }
    }
}
