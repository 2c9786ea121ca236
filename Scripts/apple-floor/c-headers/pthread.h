/* What JoineryPlatform/Threads.c uses of Darwin's <pthread.h>, as the SDK declares it. Used
   only to syntax-check the C target's Apple branch on Linux (Scripts/check-apple-floor.sh). */
#pragma once
#include <stddef.h>
#pragma clang assume_nonnull begin
struct _opaque_pthread_t;
typedef struct _opaque_pthread_t *pthread_t;
pthread_t pthread_self(void);
int pthread_main_np(void);
size_t pthread_get_stacksize_np(pthread_t);
void *pthread_get_stackaddr_np(pthread_t);
#pragma clang assume_nonnull end
