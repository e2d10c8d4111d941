import Dispatch
import Streams
import StreamsExt
import Testing

/// Code written as it would be against Combine and CombineExt, with only the imports changed:
/// each CombineExt API that Streams has is used once, spelled and typed as CombineExt declares
/// it, so that a missing spelling or a different result type fails to compile here.
@Suite struct CombineExtSurfaceTests {
    private final class Label {
        var text = ""
        var title = ""
        var caption = ""
    }

    @Test func operatorsCompileWithCombineExtsSpellingsAndTypes() {
        let numbers = PassthroughSubject<Int, Never>()
        let failing = PassthroughSubject<Int, URLErrorLike>()
        let flags = PassthroughSubject<Bool, Never>()
        let lists = PassthroughSubject<[Int], Never>()
        let never = Empty<Never, Never>()
        var cancellables = Set<AnyCancellable>()

        let value: Publishers.Map<PassthroughSubject<Int, Never>, String> = numbers.mapToValue("tick")
        let void: Publishers.Map<PassthroughSubject<Int, Never>, Void> = numbers.mapToVoid()
        let result: AnyPublisher<Result<Int, URLErrorLike>, Never> = failing.mapToResult()
        let ignored: Publishers.Map<Publishers.IgnoreOutput<PassthroughSubject<Int, Never>>, String> =
            numbers.ignoreOutput(setOutputType: String.self)
        let typed: Publishers.Map<Empty<Never, Never>, Int> = never.setOutputType(to: Int.self)
        let quiet: AnyPublisher<Int, Never> = failing.ignoreFailure()
        let retyped: AnyPublisher<Int, CancellationErrorLike> =
            failing.ignoreFailure(setFailureType: CancellationErrorLike.self, completeImmediately: false)
        let toggled: Publishers.Map<PassthroughSubject<Bool, Never>, Bool> = flags.toggle()
        let mapped: Publishers.Map<PassthroughSubject<[Int], Never>, [String]> = lists.mapMany(String.init)
        let filtered: AnyPublisher<[Int], Never> = lists.filterMany { $0 > 0 }
        let numbered: Publishers.Enumerated<PassthroughSubject<Int, Never>> = numbers.enumerated(initial: 1)
        let labelled: AnyPublisher<(index: Int, element: Int), Never> = numbered.eraseToAnyPublisher()
        let prefix: AnyPublisher<Int, Never> = numbers.prefix(while: { $0 < 10 }, behavior: .inclusive)
        let events: Publishers.Materialize<PassthroughSubject<Int, URLErrorLike>> = failing.materialize()
        let restored: Publishers.Dematerialize<Publishers.Materialize<PassthroughSubject<Int, URLErrorLike>>> =
            events.dematerialize()
        let values: AnyPublisher<Int, Never> = events.values()
        let failures: AnyPublisher<URLErrorLike, Never> = events.failures()
        let latest: Publishers.WithLatestFrom<PassthroughSubject<Int, Never>, PassthroughSubject<Bool, Never>, Bool> =
            numbers.withLatestFrom(flags)
        let windows: AnyPublisher<[Int], Never> = numbers.nwise(3)
        let pairs: AnyPublisher<(Int, Int), Never> = numbers.pairwise()
        let switched: Publishers.SwitchToLatest<Just<Int>, Publishers.Map<PassthroughSubject<Int, Never>, Just<Int>>> =
            numbers.flatMapLatest { Just($0) }

        numbered.sink { print($0.index, $0.element) }.store(in: &cancellables)
        events.sink { event in
            switch event {
            case .value(let value): print(value)
            case .failure(let error): print(error)
            case .finished: print("finished")
            }
        }.store(in: &cancellables)
        _ = (value, void, result, ignored, typed, quiet, retyped, toggled, mapped, filtered, prefix, restored)
        _ = (values, failures, latest, windows, pairs, switched, labelled)

        let label = Label()
        numbers.map(String.init).assign(to: \.text, on: label, ownership: .weak).store(in: &cancellables)
        numbers.map(String.init).assign(to: \.text, on: label, and: \.title, on: label, ownership: .unowned)
            .store(in: &cancellables)
        numbers.map(String.init)
            .assign(to: \.text, on: label, and: \.title, on: label, and: \.caption, on: label, ownership: .strong)
            .store(in: &cancellables)
        numbers.map(String.init).assign(to: \.text, on: label, and: \.title, on: label).store(in: &cancellables)
        numbers.map(String.init)
            .assign(to: \.text, on: label, and: \.title, on: label, and: \.caption, on: label)
            .store(in: &cancellables)
        numbers.send(1)
        #expect([label.text, label.title, label.caption] == ["1", "1", "1"])
        let behavior: PrefixWhileBehavior = .exclusive
        let ownership: ObjectOwnership = .strong
        #expect(behavior != .inclusive && ownership != .weak)
    }

    @Test func combiningAndCreatingCompileWithCombineExtsSpellingsAndTypes() {
        let numbers = PassthroughSubject<Int, Never>()
        let others = PassthroughSubject<Int, Never>()
        let names = PassthroughSubject<String, Never>()
        let flags = PassthroughSubject<Bool, Never>()
        let failing = PassthroughSubject<Int, URLErrorLike>()
        var cancellables = Set<AnyCancellable>()

        let raced: Publishers.Amb<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>> = numbers.amb(others)
        let racedMany: AnyPublisher<Int, Never> = numbers.amb(with: others, others)
        let racedAll: AnyPublisher<Int, Never> = [numbers, others].amb()
        let zipped: AnyPublisher<[Int], Never> = numbers.zip(with: others, others)
        let zippedAll: AnyPublisher<[Int], Never> = [numbers, others].zip()
        let combined: AnyPublisher<[Int], Never> = numbers.combineLatest(with: others, others)
        let combinedAll: AnyPublisher<[Int], Never> = [numbers, others].combineLatest()
        let merged: AnyPublisher<Int, Never> = [numbers, others].merge()
        let selected: Publishers.WithLatestFrom<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>, String> =
            numbers.withLatestFrom(names) { "\($0)\($1)" }
        let two:
            Publishers.WithLatestFrom<
                PassthroughSubject<Int, Never>, AnyPublisher<(String, Bool), Never>, (String, Bool)
            > = numbers.withLatestFrom(names, flags)
        let three = numbers.withLatestFrom(names, flags, others) { $1.0 + "\($1.1)\($1.2)\($0)" }
        let concatenated: Publishers.ConcatMap<Just<Int>, PassthroughSubject<Int, Never>> = numbers.concatMap { Just($0) }
        let batches: AnyPublisher<[Int], Never> = [Just(1), Just(2), Just(3)].flatMapBatches(of: 2)
        let retried = failing.retryWhen { failures in failures.map { _ in () } }
        let early: AnyPublisher<Int, Never> = numbers.prefix(duration: .seconds(1), on: DispatchQueue.main)
        let earlyWithOptions: AnyPublisher<Int, Never> =
            numbers.prefix(duration: .milliseconds(500), tolerance: .zero, on: DispatchQueue.main, options: nil)
        let unique = numbers.removeAllDuplicates()
        let uniqueBy = numbers.map { [$0] }.removeAllDuplicates { $0.first == $1.first }
        let parts: (matches: PassthroughSubject<Int, Never>.Partition, nonMatches: PassthroughSubject<Int, Never>.Partition) =
            numbers.partition { $0.isMultiple(of: 2) }
        let (evens, odds) = numbers.partition { $0.isMultiple(of: 2) }
        let created: AnyPublisher<Int, Never> = AnyPublisher.create { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        let initialized = AnyPublisher<Int, Never> { subscriber in
            subscriber.send(3)
            return AnyCancellable {}
        }
        let createdType = Publishers.Create<Int, Never> { subscriber in
            subscriber.send(2)
            return AnyCancellable {}
        }
        _ = (raced, racedMany, racedAll, zipped, zippedAll, combined, combinedAll, merged, selected, two, three)
        _ = (concatenated, retried, early, earlyWithOptions, unique, uniqueBy, parts, evens, odds, createdType)
        _ = initialized

        var received: [[Int]] = []
        batches.sink { received.append($0) }.store(in: &cancellables)
        var createdValues: [Int] = []
        created.sink { createdValues.append($0) }.store(in: &cancellables)
        #expect(received == [[1, 2], [3]])
        #expect(createdValues == [1])
    }

    @Test func relaysCompileWithCombineExtsSpellings() {
        let current = CurrentValueRelay<String>("initial")
        let passthrough = PassthroughRelay<String>()
        let taps = PassthroughRelay<Void>()
        var cancellables = Set<AnyCancellable>()
        current.subscribe(passthrough).store(in: &cancellables)
        passthrough.subscribe(Just("just")).store(in: &cancellables)
        Just("attached").subscribe(current).store(in: &cancellables)
        taps.accept()
        current.accept("next")
        #expect(current.value == "next")
        let event: Event<Int, Never> = .value(1)
        #expect(event == .value(1))
        func relayed<R: Relay>(_ relay: R) -> AnyPublisher<R.Output, Never> { relay.eraseToAnyPublisher() }
        _ = relayed(current)
    }

    @Test func replayCompilesWithCombineExtsSpellingsAndTypes() {
        let numbers = PassthroughSubject<Int, Never>()
        let shared: Publishers.Autoconnect<Publishers.Multicast<PassthroughSubject<Int, Never>, ReplaySubject<Int, Never>>> =
            numbers.share(replay: 1)
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        var received: [Int] = []
        var cancellables = Set<AnyCancellable>()
        shared.sink { received.append($0) }.store(in: &cancellables)
        numbers.send(1)
        shared.subscribe(subject).store(in: &cancellables)
        subject.sink { received.append($0) }.store(in: &cancellables)
        #expect(received == [1, 1])
    }

    @Test func lifetimesCompileWithCombineExtsSpellings() {
        final class Resource: Cancellable {
            var cancels = 0
            func cancel() { cancels += 1 }
        }
        let resource = Resource()
        var received: [Int] = []
        let using = Publishers.Using({ resource }, publisherFactory: { _ in Just(1) })
        let cancellable = using.sink { received.append($0) }
        #expect(received == [1])
        #expect(resource.cancels == 1)
        let delayed = Just(2).delaySubscription(for: .zero, scheduler: ImmediateScheduler.shared)
        let other = delayed.sink { received.append($0) }
        #expect(received == [1, 2])
        _ = (cancellable, other)
    }
}

/// Stand-ins for the Foundation errors such code would use.
private struct URLErrorLike: Error, Equatable {}
private struct CancellationErrorLike: Error {}
