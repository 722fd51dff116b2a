/* expect: conversion from a pointer to strict shared to a pointer to relaxed shared ('strict shared int *' to 'shared int *') discards the strict qualifier (C 6.5.16.1, UPC 1.3 6.5.1.1) */
#include <upc.h>
/* With a strict pragma in the program, an unqualified side of a conversion
 * takes the mode the pragmas give where the conversion is (UPC 1.3 6.6.1):
 * strict under the strict pragma (no warning), relaxed in the block with
 * its own relaxed pragma (the warning). */
#pragma upc strict
strict shared int flag[THREADS];
int main(void)
{
    shared int *p = &flag[MYTHREAD]; /* strict here: no warning */
    *p = 1;
    {
#pragma upc relaxed
        shared int *q = &flag[MYTHREAD]; /* here */
        *q = MYTHREAD + 1;
    }
    upc_barrier;
    return flag[MYTHREAD] != MYTHREAD + 1;
}
