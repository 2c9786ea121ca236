#ifndef JOINERY_PLATFORM_H
#define JOINERY_PLATFORM_H

#include <stdint.h>

/// Writes the lowest and highest addresses of the calling thread's stack.
/// Returns 1 on success, 0 when the platform does not tell.
int joinery_current_stack_bounds(uintptr_t *low, uintptr_t *high);

#endif
