/* expect: conversion from a pointer to strict shared to a pointer to relaxed shared ('strict shared int *' to 'relaxed shared int *') discards the strict qualifier (C 6.5.16.1, UPC 1.3 6.5.1.1) */
#include <upc.h>
strict shared int flag[THREADS];
int main(void)
{
    relaxed shared int *q = &flag[MYTHREAD]; /* here */
    *q = MYTHREAD + 1;
    upc_barrier;
    return flag[MYTHREAD] != MYTHREAD + 1;
}
