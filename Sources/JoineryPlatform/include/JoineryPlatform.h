#ifndef JOINERY_PLATFORM_H
#define JOINERY_PLATFORM_H

// The few facts about threads and memory ordering that Swift cannot ask for without the
// `Synchronization` module (which needs macOS 15 / iOS 18). Used only by Joinery's engine
// (`Sources/Joinery/Engine`).

#include <stdbool.h>
#include <stdint.h>

/// What Joinery keeps per thread: the resolution running on it and its stack's bounds.
typedef struct joinery_thread_state {
  /// The innermost frame of the resolution running on this thread, or NULL.
  const void *resolution;
  /// The lowest address of the thread's stack, and its highest; both 0 until read, and
  /// `stack_high` 0 with `stack_low` 1 when the platform does not tell.
  uintptr_t stack_low;
  uintptr_t stack_high;
  /// The lowest address a resolution on this thread may reach, from the bounds above; 0 until
  /// computed, and while the bounds are unknown.
  uintptr_t stack_limit;
  /// How many container-wide instances (persistent, cached, transient) this thread is creating
  /// now: while it is 0, no request can be captured, and the captive check does nothing.
  uintptr_t shared_creations;
} joinery_thread_state;

#if defined(_MSC_VER) && !defined(__clang__)
extern __declspec(thread) joinery_thread_state joinery_state_of_this_thread;
#else
extern _Thread_local joinery_thread_state joinery_state_of_this_thread;
#endif

/// The calling thread's state (never NULL). Zero-initialized when the thread starts.
static inline joinery_thread_state *joinery_thread(void) {
  return &joinery_state_of_this_thread;
}

/// Reads the calling thread's stack bounds into its state. Called once per thread: on Linux's
/// main thread it asks only `getrlimit` and the auxiliary vector (never `/proc/self/maps`).
void joinery_thread_read_stack(joinery_thread_state *state);

/// 1 on the process's main thread (where the main actor runs), else 0; 0 where unknown.
int joinery_is_main_thread(void);

/// Whether this build runs under ThreadSanitizer or AddressSanitizer, whose instrumented frames
/// and runtime need far more stack: the stack guard keeps a larger reserve then.
static inline int joinery_is_sanitized(void) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
  return 1;
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  return 1;
#endif
  return 0;
}

/// Whether this build runs under ThreadSanitizer, whose shadow call stack holds a fixed number
/// of frames: a resolution is kept shallower then.
static inline int joinery_is_thread_sanitized(void) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return 1;
#endif
#endif
#if defined(__SANITIZE_THREAD__)
  return 1;
#endif
  return 0;
}

/// Writes `text` and a newline to standard error (a debug report that must not need Foundation).
void joinery_write_error_line(const char *text);

/// An address in the caller's stack frame: the real machine stack, also when a sanitizer moves
/// local variables elsewhere.
static inline __attribute__((always_inline)) uintptr_t joinery_current_frame_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

// Atomic operations on a word, for the engine's flags and thread identities.

static inline uintptr_t joinery_load_acquire(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline uintptr_t joinery_load_relaxed(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void joinery_store_release(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

static inline void joinery_store_relaxed(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Replaces `expected` by `desired` (acquire and release); returns whether it did.
static inline bool joinery_compare_exchange(uintptr_t *word, uintptr_t expected,
                                            uintptr_t desired) {
  return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE);
}

/// Sets the bits of `mask` (release).
static inline void joinery_or_release(uintptr_t *word, uintptr_t mask) {
  __atomic_fetch_or(word, mask, __ATOMIC_RELEASE);
}

/// Adds `delta`, returning the new value (acquire and release).
static inline uintptr_t joinery_add(uintptr_t *word, uintptr_t delta) {
  return __atomic_add_fetch(word, delta, __ATOMIC_ACQ_REL);
}

#if defined(__linux__)
// A mutual-exclusion lock on one 32-bit word and the kernel's futex, for Linux (glibc, musl,
// Android): a free lock is taken with one compare-and-swap and released with one exchange, where
// `pthread_mutex_t` costs about 55 instructions a lock and unlock. It never spins: a thread
// that finds the lock held sleeps in the kernel until the holder wakes it. `state` is 0 when
// free, 1 when held, 2 when held and a thread may be sleeping on it (Drepper, "Futexes Are
// Tricky", the third mutex). The atomics are plain C ones, which ThreadSanitizer sees: the
// release in `joinery_lock_unlock` orders what the holder wrote before the acquire of the next
// holder's lock.
typedef struct joinery_lock {
  uint32_t state;
  /// The thread holding the lock, recorded by debug builds only (to stop at a recursive lock or
  /// a foreign unlock, as `os_unfair_lock` does); read and written atomically.
  uintptr_t holder;
} joinery_lock;

/// Takes a lock found held: marks it contended and sleeps until it is free.
void joinery_lock_contended(joinery_lock *lock);

/// Wakes one thread sleeping on a lock that was just released.
void joinery_lock_wake(joinery_lock *lock);

/// Takes the lock, sleeping while another thread holds it.
static inline __attribute__((always_inline)) void joinery_lock_lock(joinery_lock *lock) {
  uint32_t expected = 0;
  if (!__atomic_compare_exchange_n(&lock->state, &expected, 1, false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED)) {
    joinery_lock_contended(lock);
  }
}

/// Takes the lock if it is free; returns whether it did.
static inline __attribute__((always_inline)) bool joinery_lock_try_lock(joinery_lock *lock) {
  uint32_t expected = 0;
  return __atomic_compare_exchange_n(&lock->state, &expected, 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

/// Releases the lock, waking a sleeping thread if one may be waiting.
static inline __attribute__((always_inline)) void joinery_lock_unlock(joinery_lock *lock) {
  if (__atomic_exchange_n(&lock->state, 0, __ATOMIC_RELEASE) == 2) joinery_lock_wake(lock);
}

static inline uintptr_t joinery_lock_holder(joinery_lock *lock) {
  return __atomic_load_n(&lock->holder, __ATOMIC_RELAXED);
}

static inline void joinery_lock_set_holder(joinery_lock *lock, uintptr_t thread) {
  __atomic_store_n(&lock->holder, thread, __ATOMIC_RELAXED);
}
#endif

#endif
