#if defined(__linux__) || defined(__ANDROID__)
#define _GNU_SOURCE
#endif

#include "JoineryPlatform.h"

#if defined(__APPLE__)
#include <pthread.h>
#elif defined(__linux__) || defined(__ANDROID__) || defined(__FreeBSD__)
#include <pthread.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

int joinery_current_stack_bounds(uintptr_t *low, uintptr_t *high) {
#if defined(__APPLE__)
  pthread_t self = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
  size_t size = pthread_get_stacksize_np(self);
  *high = top;
  *low = top - size;
  return 1;
#elif defined(__linux__) || defined(__ANDROID__)
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

__attribute__((noinline)) uintptr_t joinery_current_frame_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

