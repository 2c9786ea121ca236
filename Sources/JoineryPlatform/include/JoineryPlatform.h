#ifndef JOINERY_PLATFORM_H
#define JOINERY_PLATFORM_H

#include <stdint.h>

/// Writes the lowest and highest addresses of the calling thread's stack.
/// Returns 1 on success, 0 when the platform does not tell.
int joinery_current_stack_bounds(uintptr_t *low, uintptr_t *high);

/// The address of the caller's stack frame: the real machine stack, also when a sanitizer moves
/// local variables elsewhere.
uintptr_t joinery_current_frame_address(void);

#endif
