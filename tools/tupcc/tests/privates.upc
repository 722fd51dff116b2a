/* Private objects of static storage are per thread (in UPC each
 * thread has its own), block-scope static shared objects are allocated once
 * before main, with zero or their initializer, and a shared scalar with an
 * initializer has its value on entry to main. */
#include <upc.h>
#include <stdio.h>

int counter;
static int hidden = 5;
const int table[3] = {1, 2, 3};
shared int ready = 7;
shared [] double pi_ish = 3.25;
int a, *pa = &a, b[2] = {4, 5};
shared int arr[2 * THREADS];
shared int *to_arr = &arr[1], *none = 0; /* each thread's own pointers-to-shared */
struct holder {
    shared int *p;
    int n;
} held = {0, 3};

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static int bump(void)
{
    static int calls;
    return ++calls;
}

static int shared_bump(void)
{
    static shared int calls;
    static shared [] int tally[THREADS];
    int r;
    tally[MYTHREAD] += 1;
    upc_barrier;
    if (MYTHREAD == 0)
        calls += 1;
    upc_barrier;
    r = calls;
    for (int i = 0; i < THREADS; i++)
        EXPECT(tally[i] == r);
    upc_barrier;
    return r;
}

int main(void)
{
    EXPECT(ready == 7 && pi_ish == 3.25);
    EXPECT(counter == 0 && hidden == 5 && table[2] == 3 && pa == &a && b[1] == 5);
    EXPECT(to_arr == &arr[1] && upc_threadof(to_arr) == (size_t)(1 % THREADS) && none == NULL);
    EXPECT(held.p == NULL && held.n == 3);
    counter += MYTHREAD + 1;
    hidden += MYTHREAD;
    *pa = MYTHREAD;
    upc_barrier;
    EXPECT(counter == MYTHREAD + 1 && hidden == 5 + MYTHREAD && a == MYTHREAD);
    EXPECT(bump() == 1 && bump() == 2);
    EXPECT(shared_bump() == 1 && shared_bump() == 2);
    return fails != 0;
}
