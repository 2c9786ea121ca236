/* What JoineryPlatform/Threads.c uses of Darwin's <stdio.h>, as the SDK declares it (stderr
   is the macro over __stderrp there). Syntax checks only: Scripts/check-apple-floor.sh. */
#pragma once
typedef struct __sFILE FILE;
extern FILE *__stderrp;
#define stderr __stderrp
int fputs(const char *restrict, FILE *restrict);
int fputc(int, FILE *);
int fflush(FILE *);
