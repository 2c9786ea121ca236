#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif os(Windows)
  import WinSDK
#endif

/// A number that identifies the calling thread while it runs.
///
/// Used only to tell "this thread already builds that instance" (a re-entrant cycle) from
/// "another thread builds it" (wait), and to find waits that would deadlock.
enum ThreadIdentity {
  /// The identity of the calling thread; never zero.
  static var current: UInt {
    #if canImport(Darwin)
      return UInt(bitPattern: pthread_self())
    #elseif os(Windows)
      return UInt(GetCurrentThreadId()) &+ 1
    #else
      return UInt(pthread_self())
    #endif
  }
}
