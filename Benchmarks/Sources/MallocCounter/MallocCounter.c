#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#define _GNU_SOURCE
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_int counting = 0;
static atomic_ullong allocations = 0;

static inline void count(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  }
}

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { count(); return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
  count();
  void *p = __libc_memalign(alignment, size);
  if (!p) return 12;
  *out = p;
  return 0;
}

void malloc_counter_start(void) {
  atomic_store(&allocations, 0);
  atomic_store(&counting, 1);
}
uint64_t malloc_counter_stop(void) {
  atomic_store(&counting, 0);
  return atomic_load(&allocations);
}
int malloc_counter_available(void) { return 1; }
uint64_t malloc_counter_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return (uint64_t)info.uordblks;
}
#else
void malloc_counter_start(void) {}
uint64_t malloc_counter_stop(void) { return 0; }
int malloc_counter_available(void) { return 0; }
uint64_t malloc_counter_bytes_in_use(void) { return 0; }
#endif
