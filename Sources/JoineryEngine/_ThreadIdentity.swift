#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif os(Windows)
  internal import WinSDK
#endif

/// A number that identifies the calling thread while it runs.
///
/// Used only to tell "this thread already builds that instance" (a re-entrant cycle) from
/// "another thread builds it" (wait), and to find waits that would deadlock.
@usableFromInline package enum _ThreadIdentity {
  /// The identity of the calling thread; never zero.
  @usableFromInline package static var current: UInt {
    #if canImport(Darwin)
      return unsafe UInt(bitPattern: pthread_self())
    #elseif os(Windows)
      return UInt(GetCurrentThreadId()) &+ 1
    #else
      return UInt(pthread_self())
    #endif
  }
}
