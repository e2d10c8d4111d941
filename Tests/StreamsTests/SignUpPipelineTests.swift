import Streams
import StreamsTesting
import Testing

/// The sign-up form's user-name check, end to end on the virtual clock: keystrokes are debounced,
/// duplicates dropped, each settled name checked by a (fake) request, only the latest request
/// counts, failures become values, and two sinks share one result stream.
@Suite("Sign-up form pipeline")
struct SignUpPipelineTests {
    enum CheckError: Error, Equatable { case server }

    /// A fake availability service that answers after `latency` of virtual time and counts calls.
    final class FakeService: @unchecked Sendable {
        let scheduler: TestScheduler
        let latency: TestScheduler.SchedulerTimeType.Stride
        var requests: [String] = []
        init(scheduler: TestScheduler, latency: TestScheduler.SchedulerTimeType.Stride = .milliseconds(200)) {
            self.scheduler = scheduler
            self.latency = latency
        }

        func isAvailable(_ name: String) -> AnyPublisher<Bool, CheckError> {
            Deferred { [self] () -> AnyPublisher<Bool, CheckError> in
                requests.append(name)
                let answer: AnyPublisher<Bool, CheckError> =
                    name == "servererror"
                    ? Fail(error: .server).eraseToAnyPublisher()
                    : Just(!["johndoe", "page"].contains(name)).setFailureType(to: CheckError.self).eraseToAnyPublisher()
                return answer.delay(for: latency, scheduler: scheduler).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    final class ViewModel: @unchecked Sendable {
        @Published var userName = ""
        var messages: [String] = []
        var validity: [Bool] = []
        private var cancellables = Set<AnyCancellable>()

        init(service: FakeService, scheduler: TestScheduler) {
            let result =
                $userName
                .dropFirst()
                .debounce(for: .milliseconds(800), scheduler: scheduler)
                .removeDuplicates()
                .map { service.isAvailable($0).asResult() }
                .switchToLatest()
                .receive(on: scheduler)
                .share()
            result
                .map { result -> String in
                    switch result {
                    case .success(true): "Available"
                    case .success(false): "That name is taken"
                    case .failure: "Could not check the name"
                    }
                }
                .sink { [unowned self] in messages.append($0) }
                .store(in: &cancellables)
            result
                .map { (try? $0.get()) == true }
                .sink { [unowned self] in validity.append($0) }
                .store(in: &cancellables)
        }
    }

    @Test func aBurstOfKeystrokesMakesOneRequestPerSettledName() {
        let scheduler = TestScheduler()
        let service = FakeService(scheduler: scheduler)
        let model = ViewModel(service: service, scheduler: scheduler)

        for prefix in ["j", "jo", "joh", "john", "johnd", "johndo", "johndoe"] {
            model.userName = prefix
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.advance(by: .seconds(2))
        #expect(service.requests == ["johndoe"])
        #expect(model.messages == ["That name is taken"])
        #expect(model.validity == [false])

        model.userName = "johndoe2"
        scheduler.advance(by: .milliseconds(500))
        model.userName = "johndoe"  // back to the same settled name: no new request
        scheduler.advance(by: .seconds(2))
        #expect(service.requests == ["johndoe"])

        model.userName = "alice"
        scheduler.advance(by: .seconds(2))
        #expect(service.requests == ["johndoe", "alice"])
        #expect(model.messages == ["That name is taken", "Available"])
        #expect(model.validity == [false, true])
    }

    @Test func aNewNameCancelsTheRequestInFlight() {
        let scheduler = TestScheduler()
        let service = FakeService(scheduler: scheduler, latency: .milliseconds(1_500))
        let model = ViewModel(service: service, scheduler: scheduler)
        model.userName = "alice"
        scheduler.advance(by: .milliseconds(900))  // "alice" settled at 0.8 s; answer due at 2.3 s
        model.userName = "page"  // settles at 1.7 s and replaces the request
        scheduler.advance(by: .seconds(5))
        #expect(service.requests == ["alice", "page"])
        #expect(model.messages == ["That name is taken"])
    }

    @Test func aFailedCheckIsShownAndThePipelineKeepsWorking() {
        let scheduler = TestScheduler()
        let service = FakeService(scheduler: scheduler)
        let model = ViewModel(service: service, scheduler: scheduler)
        model.userName = "servererror"
        scheduler.advance(by: .seconds(2))
        model.userName = "bobby"
        scheduler.advance(by: .seconds(2))
        #expect(model.messages == ["Could not check the name", "Available"])
        #expect(model.validity == [false, true])
    }
}
