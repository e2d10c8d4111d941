import Streams

// A first pipeline: numbers in, a running total out.
let cancellable = (1...5).publisher
    .map { $0 * 10 }
    .sink { print("value:", $0) }
cancellable.cancel()
