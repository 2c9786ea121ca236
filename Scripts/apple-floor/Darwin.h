// The part of Apple's Darwin module that Joinery's Swift code uses (Engine/_Lock.swift,
// Internal/ThreadIdentity.swift), and below it what the tests and samples use, declared as the macOS/iOS SDK headers <pthread.h> and
// <os/lock.h> declare it: same types, same nullability, same availability. Declarations only:
// Scripts/check-apple-floor.sh imports this as `Darwin` to type-check and emit IR for Apple
// targets on Linux. When Joinery calls another Darwin function, add it here with the
// availability its SDK header gives, or the check fails with "cannot find ... in scope".
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#pragma clang assume_nonnull begin

// A complete struct, as in the SDK: Swift then imports `pthread_t` as
// `UnsafeMutablePointer<_opaque_pthread_t>` (non-optional), which ThreadIdentity relies on.
struct _opaque_pthread_t {
  long __sig;
  void *_Nullable __cleanup_stack;
  char __opaque[8176];
};
typedef struct _opaque_pthread_t *pthread_t;

#define JOINERY_SINCE_PTHREAD \
  __attribute__((availability(macos, introduced = 10.4))) \
  __attribute__((availability(ios, introduced = 2.0)))
JOINERY_SINCE_PTHREAD pthread_t pthread_self(void);
JOINERY_SINCE_PTHREAD int pthread_main_np(void);
JOINERY_SINCE_PTHREAD size_t pthread_get_stacksize_np(pthread_t);
JOINERY_SINCE_PTHREAD void *pthread_get_stackaddr_np(pthread_t);

// os_unfair_lock arrived in macOS 10.12, iOS 10, tvOS 10, watchOS 3: below Joinery's floor.
#define JOINERY_SINCE_UNFAIR_LOCK \
  __attribute__((availability(macos, introduced = 10.12))) \
  __attribute__((availability(ios, introduced = 10.0))) \
  __attribute__((availability(tvos, introduced = 10.0))) \
  __attribute__((availability(watchos, introduced = 3.0)))
JOINERY_SINCE_UNFAIR_LOCK typedef struct os_unfair_lock_s {
  uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;
JOINERY_SINCE_UNFAIR_LOCK void os_unfair_lock_lock(os_unfair_lock_t lock);
JOINERY_SINCE_UNFAIR_LOCK bool os_unfair_lock_trylock(os_unfair_lock_t lock)
    __attribute__((warn_unused_result));
JOINERY_SINCE_UNFAIR_LOCK void os_unfair_lock_unlock(os_unfair_lock_t lock);

// Used by the tests and the package's samples (step 3 of the check), not by the library.
_Noreturn void exit(int);
int sched_yield(void);
int usleep(unsigned int);
void *_Nullable dlsym(void *_Nullable handle, const char *symbol);

#pragma clang assume_nonnull end
