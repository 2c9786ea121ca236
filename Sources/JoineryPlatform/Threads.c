#if defined(__linux__) || defined(__ANDROID__)
#define _GNU_SOURCE
#endif

#include <stdio.h>
#include "JoineryPlatform.h"

#if defined(__APPLE__) || defined(__linux__) || defined(__ANDROID__) || defined(__FreeBSD__)
#include <pthread.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#endif
#if defined(_WIN32)
#include <windows.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/futex.h>)
#include <linux/futex.h>
#else
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
#endif
#if !defined(SYS_futex) && defined(SYS_futex_time64)
// 32-bit architectures added after 2038-safe time (riscv32, say) name only the time64 call;
// the lock passes no timeout, so it is the same call.
#define SYS_futex SYS_futex_time64
#endif
#endif

#if defined(_MSC_VER) && !defined(__clang__)
__declspec(thread) joinery_thread_state joinery_state_of_this_thread;
#else
_Thread_local joinery_thread_state joinery_state_of_this_thread;
#endif

#if defined(__linux__) && defined(__GLIBC__)
/// The main thread's stack, without `pthread_getattr_np` (which parses `/proc/self/maps` for
/// it): the top is just above the executable's name, the last string the kernel put there; the
/// size is the stack's resource limit (8 MiB assumed when unlimited). 0 if `here` is elsewhere.
static int main_thread_stack(uintptr_t here, uintptr_t *low, uintptr_t *high) {
  const char *name = (const char *)getauxval(AT_EXECFN);
  if (name == 0) return 0;
  uintptr_t top = (uintptr_t)name + strlen(name) + 1;
  top = (top + 4095) & ~(uintptr_t)4095;
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) != 0) return 0;
  uintptr_t size = 8u << 20;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < ((rlim_t)1 << 32))
    size = (uintptr_t)limit.rlim_cur;
  if (here > top || here <= top - size) return 0;
  *low = top - size;
  *high = top;
  return 1;
}
#endif

static int stack_bounds(uintptr_t *low, uintptr_t *high) {
#if defined(__APPLE__)
  pthread_t self = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
  size_t size = pthread_get_stacksize_np(self);
  *high = top;
  *low = top - size;
  return 1;
#elif defined(__linux__) || defined(__ANDROID__)
#if defined(__GLIBC__)
  if (main_thread_stack((uintptr_t)__builtin_frame_address(0), low, high)) return 1;
#endif
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  void *base = 0;
  size_t size = 0;
  int ok = pthread_attr_getstack(&attributes, &base, &size) == 0;
  pthread_attr_destroy(&attributes);
  if (!ok || base == 0) return 0;
  *low = (uintptr_t)base;
  *high = (uintptr_t)base + size;
  return 1;
#elif defined(_WIN32)
  ULONG_PTR lowLimit = 0, highLimit = 0;
  GetCurrentThreadStackLimits(&lowLimit, &highLimit);
  *low = (uintptr_t)lowLimit;
  *high = (uintptr_t)highLimit;
  return 1;
#else
  (void)low;
  (void)high;
  return 0;
#endif
}

void joinery_thread_read_stack(joinery_thread_state *state) {
  uintptr_t low = 0, high = 0;
  if (stack_bounds(&low, &high) && high > low) {
    state->stack_low = low;
    state->stack_high = high;
  } else {
    state->stack_low = 1;
    state->stack_high = 0;
  }
}

#if defined(__linux__) || defined(__ANDROID__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

int joinery_is_main_thread(void) {
#if defined(__APPLE__)
  return pthread_main_np() == 1;
#elif defined(__linux__) || defined(__ANDROID__)
  // The main thread's id is the process id. Asked once per thread: the answer never changes.
  static _Thread_local int answer = -1;
  if (answer < 0) answer = (pid_t)syscall(SYS_gettid) == getpid();
  return answer;
#else
  return 0;
#endif
}


void joinery_write_error_line(const char *text) {
  fputs(text, stderr);
  fputc('\n', stderr);
  fflush(stderr);
}

#if defined(__linux__)
void joinery_lock_contended(joinery_lock *lock) {
  // From here on the state says 2 (held, maybe with sleepers) until the lock is taken: whoever
  // releases it then wakes one sleeper, which takes it as contended in turn.
  while (__atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE) != 0) {
    // Sleeps only if the state still says 2; a release in between makes the call return at once.
    syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
  }
}

void joinery_lock_wake(joinery_lock *lock) {
  syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
