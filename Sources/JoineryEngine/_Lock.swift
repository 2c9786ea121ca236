public import JoineryPlatform

// Public: the lock's inlinable methods call the platform primitive.

#if canImport(Darwin)
  public import Darwin
#elseif os(Linux) || os(Android)
  // The futex lock of JoineryPlatform; no C library lock.
#elseif canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Android)
  public import Android
#elseif os(Windows)
  public import WinSDK
#endif

#if canImport(Darwin)
  /// The platform's lock primitive.
  @usableFromInline package typealias _PlatformLock = os_unfair_lock
#elseif os(Linux) || os(Android)
  /// The platform's lock primitive: a futex word (`JoineryPlatform.h`).
  @usableFromInline package typealias _PlatformLock = joinery_lock
#elseif os(Windows)
  /// The platform's lock primitive.
  @usableFromInline package typealias _PlatformLock = SRWLOCK
#else
  /// The platform's lock primitive.
  @usableFromInline package typealias _PlatformLock = pthread_mutex_t
#endif

/// A non-recursive mutual-exclusion lock whose primitive lives at a stable address (the tail of a
/// `ManagedBuffer`).
///
/// Locking it again on the thread that holds it, or unlocking it from another thread, is a
/// bug: `os_unfair_lock` aborts the process on Apple platforms, and debug builds elsewhere stop
/// at an assertion instead of hanging (on Linux the lock records its holder in debug builds;
/// other platforms use an error-checking mutex).
///
/// Built on the platform primitive (`os_unfair_lock`, `SRWLOCK`, `pthread_mutex_t`), and on Linux
/// on a futex word of its own (`joinery_lock` in `JoineryPlatform.h`: one compare-and-swap to
/// take, one exchange to release, a sleep in the kernel when held, never a spin), rather than
/// `Synchronization.Mutex`, because ThreadSanitizer understands these: it intercepts the
/// platform's locks and sees the futex word's atomics, compiled with the sanitizer, where it
/// cannot see the ones inside `Mutex` and would report every access the lock protects as a race.
///
/// The header is a word the lock's users may read and write atomically: a creation gate keeps
/// the thread that holds it there (``owner``).
@safe
@usableFromInline package final class _Lock: ManagedBuffer<UInt, _PlatformLock> {
  /// Creates an unlocked lock.
  @usableFromInline package static func make() -> _Lock {
    #if os(Linux) || os(Android)
      let buffer = _Lock.create(minimumCapacity: 1) { _ in 0 }
    #else
      // The primitive (`pthread_mutex_t`, `SRWLOCK`) holds pointers: an unsafe type.
      let buffer = unsafe _Lock.create(minimumCapacity: 1) { _ in 0 }
    #endif
    let lock = unsafe unsafeDowncast(buffer, to: _Lock.self)
    unsafe lock.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        unsafe primitive.initialize(to: os_unfair_lock())
      #elseif os(Linux) || os(Android)
        unsafe primitive.initialize(to: joinery_lock(state: 0, holder: 0))
      #elseif os(Windows)
        unsafe InitializeSRWLock(primitive)
      #else
        unsafe primitive.initialize(to: pthread_mutex_t())
        #if DEBUG
          // An error-checking mutex fails a recursive lock or a foreign unlock, where a normal
          // one hangs or carries on: debug builds then stop where `os_unfair_lock` aborts on
          // Apple platforms, so Linux CI sees what only an Apple OS would show.
          var attributes = pthread_mutexattr_t()
          unsafe pthread_mutexattr_init(&attributes)
          unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
          let status = unsafe pthread_mutex_init(primitive, &attributes)
          unsafe pthread_mutexattr_destroy(&attributes)
        #else
          let status = unsafe pthread_mutex_init(primitive, nil)
        #endif
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
      #endif
    }
    return lock
  }

  deinit {
    unsafe withUnsafeMutablePointerToElements { primitive in
      #if !canImport(Darwin) && !os(Windows) && !os(Linux) && !os(Android)
        _ = unsafe pthread_mutex_destroy(primitive)
      #endif
      _ = unsafe primitive.deinitialize(count: 1)
    }
  }

  /// The thread recorded as holding the lock (0 for none), read and written atomically; what
  /// the holder records is up to it.
  @usableFromInline package var owner: UInt {
    get { unsafe withUnsafeMutablePointerToHeader { unsafe joinery_load_relaxed($0) } }
    set { unsafe withUnsafeMutablePointerToHeader { unsafe joinery_store_relaxed($0, newValue) } }
  }

  /// Waits for the lock and takes it.
  @inlinable @inline(__always)
  package func lock() {
    unsafe withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        unsafe os_unfair_lock_lock(primitive)
      #elseif os(Linux) || os(Android)
        #if DEBUG
          let thread = _ThreadIdentity.current
          precondition(
            unsafe joinery_lock_holder(primitive) != thread,
            "a lock this thread already holds, locked again (os_unfair_lock aborts)")
          unsafe joinery_lock_lock(primitive)
          unsafe joinery_lock_set_holder(primitive, thread)
        #else
          unsafe joinery_lock_lock(primitive)
        #endif
      #elseif os(Windows)
        unsafe AcquireSRWLockExclusive(primitive)
      #else
        let status = unsafe pthread_mutex_lock(primitive)
        assert(
          status == 0, "a lock this thread already holds, locked again (os_unfair_lock aborts)")
      #endif
    }
  }

  /// Takes the lock if it is free; returns whether it did.
  @inlinable @inline(__always)
  package func tryLock() -> Bool {
    unsafe withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        return unsafe os_unfair_lock_trylock(primitive)
      #elseif os(Linux) || os(Android)
        guard unsafe joinery_lock_try_lock(primitive) else { return false }
        #if DEBUG
          unsafe joinery_lock_set_holder(primitive, _ThreadIdentity.current)
        #endif
        return true
      #elseif os(Windows)
        return unsafe TryAcquireSRWLockExclusive(primitive) != 0
      #else
        return unsafe pthread_mutex_trylock(primitive) == 0
      #endif
    }
  }

  /// Releases the lock, held by the calling thread.
  @inlinable @inline(__always)
  package func unlock() {
    unsafe withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        unsafe os_unfair_lock_unlock(primitive)
      #elseif os(Linux) || os(Android)
        #if DEBUG
          precondition(
            unsafe joinery_lock_holder(primitive) == _ThreadIdentity.current,
            "a lock unlocked by a thread not holding it (os_unfair_lock aborts)")
          unsafe joinery_lock_set_holder(primitive, 0)
        #endif
        unsafe joinery_lock_unlock(primitive)
      #elseif os(Windows)
        unsafe ReleaseSRWLockExclusive(primitive)
      #else
        let status = unsafe pthread_mutex_unlock(primitive)
        assert(status == 0, "a lock unlocked by a thread not holding it (os_unfair_lock aborts)")
      #endif
    }
  }

  /// Runs `body` holding the lock.
  @inlinable @inline(__always)
  package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
