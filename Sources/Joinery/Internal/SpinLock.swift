public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock for critical sections of a few instructions that never block: reading or writing a
/// weak reference. Uncontended it costs one compare-exchange and one store; a thread that finds
/// it taken spins, then yields.
///
/// Never hold it across a call that may block, allocate on a slow path, or take another lock.
@usableFromInline
struct SpinLock: ~Copyable {
  @usableFromInline let held = Atomic<Bool>(false)

  init() {}

  @inlinable @inline(__always)
  func withLock<R>(_ body: () -> R) -> R {
    lock()
    defer { held.store(false, ordering: .releasing) }
    return body()
  }

  @inlinable @inline(__always)
  func lock() {
    if held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
      return
    }
    contend()
  }

  @usableFromInline @inline(never)
  func contend() {
    var spins = 0
    while true {
      if !held.load(ordering: .relaxed),
        held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
      {
        return
      }
      spins += 1
      if spins >= 64 {
        sched_yield()
        spins = 0
      }
    }
  }
}
