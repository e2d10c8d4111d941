// Networking code written for Combine imports `Combine` and `Foundation`; ported, it imports
// `StreamsNetworking` instead of `Combine` and compiles unchanged: this module brings `Streams`
// along, and, where URLSession lives in a module of its own, `FoundationNetworking` too.
@_exported import Streams
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
