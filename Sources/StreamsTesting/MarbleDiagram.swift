/// The events of a marble diagram, tick by tick: the parser behind
/// `publisher(marbles:tick:)` and the renderer behind `marbles(of:tick:maxTicks:)`.
///
/// The alphabet: each symbol is one tick; `-` is a tick with nothing; any other character is a
/// value, the one-character string itself; `(jo)` is the value `"jo"` in one tick; `[ab|]` is
/// several events in one tick; `|` is finished, `#` a failure. Spaces are ignored.
struct MarbleDiagram {
    enum Event: Equatable {
        case value(String)
        case finished
        case failure
    }

    /// The events of each tick; an empty array is a `-`.
    var ticks: [[Event]]

    init(ticks: [[Event]]) {
        self.ticks = ticks
    }

    /// Parses `text`; a bracket left open is a programming error.
    init(parsing text: String) {
        var ticks: [[Event]] = []
        var group: [Event]?
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            let event: Event?
            switch character {
            case " ":
                continue
            case "-":
                precondition(group == nil, "A marble group cannot contain `-`: \(text)")
                event = nil
            case "|":
                event = .finished
            case "#":
                event = .failure
            case "(":
                var value = ""
                while let next = iterator.next(), next != ")" { value.append(next) }
                event = .value(value)
            case "[":
                precondition(group == nil, "Marble groups cannot nest: \(text)")
                group = []
                continue
            case "]":
                guard let events = group else { preconditionFailure("A `]` without its `[`: \(text)") }
                ticks.append(events)
                group = nil
                continue
            default:
                event = .value(String(character))
            }
            if group != nil {
                group?.append(event!)
            } else {
                ticks.append(event.map { [$0] } ?? [])
            }
        }
        precondition(group == nil, "A `[` without its `]`: \(text)")
        self.ticks = ticks
    }

    /// The diagram as text, ending at the last event.
    var text: String {
        let last = ticks.lastIndex { !$0.isEmpty } ?? -1
        return ticks.prefix(last + 1).map { events in
            switch events.count {
            case 0: "-"
            case 1: Self.symbol(events[0])
            default: "[" + events.map(Self.symbol).joined() + "]"
            }
        }.joined()
    }

    private static func symbol(_ event: Event) -> String {
        switch event {
        case .finished:
            return "|"
        case .failure:
            return "#"
        case .value(let value):
            let plain = value.count == 1 && !"-|#()[] ".contains(value)
            return plain ? value : "(\(value))"
        }
    }
}
