/// A publisher that replays a recorded sequence of values and a completion to each subscriber,
/// honouring its demand: handy as a stub in tests and previews.
///
/// ```swift
/// let stub = Record<Int, URLError>(output: [1, 2], completion: .failure(URLError(.timedOut)))
/// let scripted = Record<String, Never> { recording in
///     recording.receive("hello")
///     recording.receive(completion: .finished)
/// }
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// A recorded sequence of values and its completion.
    ///
    /// ```swift
    /// var recording = Record<Int, Never>.Recording()
    /// recording.receive(1)
    /// recording.receive(completion: .finished)
    /// ```
    public struct Recording {
        /// The recorded values.
        public private(set) var output: [Output]
        /// The recorded completion; `.finished` until one is received.
        public private(set) var completion: Subscribers.Completion<Failure>
        @usableFromInline
        var completed: Bool

        /// An empty recording.
        ///
        /// ```swift
        /// var recording = Record<Int, Never>.Recording()
        /// ```
        public init() {
            output = []
            completion = .finished
            completed = false
        }

        /// A recording of `output` ending with `completion`.
        ///
        /// ```swift
        /// let recording = Record<Int, Never>.Recording(output: [1, 2], completion: .finished)
        /// ```
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            completed = true
        }

        /// Records a value. Recording after the completion is a programming error.
        ///
        /// ```swift
        /// recording.receive(42)
        /// ```
        public mutating func receive(_ input: Output) {
            precondition(!completed, "Record.Recording received a value after its completion")
            output.append(input)
        }

        /// Records the completion. Recording a second completion is a programming error.
        ///
        /// ```swift
        /// recording.receive(completion: .finished)
        /// ```
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!completed, "Record.Recording received a second completion")
            self.completion = completion
            completed = true
        }
    }

    /// The recording replayed to each subscriber.
    public let recording: Recording

    /// Replays `recording`.
    ///
    /// ```swift
    /// let record = Record(recording: recording)
    /// ```
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Replays `output`, then `completion`.
    ///
    /// ```swift
    /// let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    /// ```
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    /// Replays what `record` puts in a new recording (finished, if it records no completion).
    ///
    /// ```swift
    /// let record = Record<Int, Never> { $0.receive(1); $0.receive(completion: .finished) }
    /// ```
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Attaches `subscriber`: the values as demand allows, then the completion. As in Combine,
    /// an empty recording sends ``Subscriptions/empty`` and its completion at once.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        var iterator = recording.output.makeIterator()
        guard let first = iterator.next() else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(
            subscription: SequenceSubscription(
                downstream: subscriber, sequence: recording.output, iterator: iterator, next: first,
                completion: recording.completion, isRecord: true))
    }
}

extension Record.Recording: Sendable where Output: Sendable {}
extension Record: Sendable where Output: Sendable {}
extension Record.Recording: Equatable where Output: Equatable, Failure: Equatable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output, completion
    }

    /// Decodes a recording: its values and its completion.
    ///
    /// ```swift
    /// let recording = try JSONDecoder().decode(Record<Int, Never>.Recording.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the values and the completion.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(recording)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the values and the completion: Combine's other name for ``encode(to:)``.
    ///
    /// ```swift
    /// try recording.encode(into: encoder)
    /// ```
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record from its recording.
    ///
    /// ```swift
    /// let stub = try JSONDecoder().decode(Record<Int, Never>.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the recording.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(stub)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
extension Record: Equatable where Output: Equatable, Failure: Equatable {}
