/* expect: conversion from a pointer to strict shared to a pointer to relaxed shared ('strict shared int *' to 'shared int *') discards the strict qualifier (C 6.5.16.1, UPC 1.3 6.5.1.1) */
#include <upc.h>
/* No strict pragma and no <upc_strict.h>: an unqualified shared int is relaxed. */
strict shared int flag[THREADS];
int main(void)
{
    shared int *q = &flag[MYTHREAD]; /* here */
    *q = MYTHREAD + 1;
    upc_barrier;
    return flag[MYTHREAD] != MYTHREAD + 1;
}
