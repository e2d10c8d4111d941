import Streams
import StreamsExt
import StreamsTesting

/// The flattening, racing and collection fan-in operators beyond Combine's, for the contract
/// suite: joined to ``operatorCatalog`` there.
let flatteningAndRacingCatalog: [OperatorEntry] = {
    let none: [String] = []
    return [
        // Compositions: the upstream sees the operator they start with (flatMapLatest's entry is
        // in the extension catalog).
        OperatorEntry("concatMap", .named("FlatMap", children: none)) { h in
            let t = h.tracked
            return h.ints.concatMap {
                _ = t; return Just($0).setFailureType(to: TestError.self)
            }.contract()
        },
        OperatorEntry("flatMapFirst", .named("FlatMapFirst", children: none)) { h in
            let t = h.tracked
            return h.ints.flatMapFirst {
                _ = t; return Just($0).setFailureType(to: TestError.self)
            }.contract()
        },
        // The upstream races a publisher that never sends anything, and wins with its first value.
        OperatorEntry("amb", .named("Amb", children: none)) { h in
            h.ints.amb(Empty(completeImmediately: false)).contract()
        },
        // One race between all the publishers; the upstream wins with its first value.
        OperatorEntry("Collection.amb()", .named("Amb", children: none)) { h in
            let never = Empty<Int, TestError>(completeImmediately: false).eraseToAnyPublisher()
            let contenders: [AnyPublisher<Int, TestError>] = [h.ints.eraseToAnyPublisher(), never, never]
            return contenders.amb().contract()
        },
        OperatorEntry("Collection.combineLatest()", .named("CombineLatest", children: none)) { h in
            [h.ints.eraseToAnyPublisher(), Just(0).setFailureType(to: TestError.self).eraseToAnyPublisher()]
                .combineLatest().contract()
        },
        OperatorEntry("Collection.zip()", .named("Zip", children: none)) { h in
            [h.ints.eraseToAnyPublisher(), (0..<1000).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()]
                .zip().contract()
        },
        // The upstream is in the first batch, zipped with a publisher of plenty of values.
        OperatorEntry("Collection.flatMapBatches(of:)", .named("Zip", children: none)) { h in
            [h.ints.eraseToAnyPublisher(), (0..<1000).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()]
                .flatMapBatches(of: 2).contract()
        },
        OperatorEntry("Collection.merge()", .named("Merge", children: none)) { h in
            [h.ints.eraseToAnyPublisher(), Empty().eraseToAnyPublisher()].merge().contract()
        },
    ]
}()
