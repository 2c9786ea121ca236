#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Starts counting allocations made by any thread.
void malloc_counter_start(void);
/// Stops counting; returns the number of allocations since the start.
uint64_t malloc_counter_stop(void);
/// Whether allocations can be counted on this platform.
int malloc_counter_available(void);
/// Bytes currently allocated (glibc's view), or 0 where unknown.
uint64_t malloc_counter_bytes_in_use(void);

#endif
