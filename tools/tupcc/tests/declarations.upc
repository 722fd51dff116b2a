/* More declarations: a typedef of a pointer-to-shared, locks kept in shared
 * memory, a private pointer to a shared pointer-to-shared, a const shared
 * object with an initializer, the address of a shared scalar as an
 * argument, an array of one element. */
#include <upc.h>
#include <stdio.h>
typedef shared [] int *sintptr;
upc_lock_t *shared locks[THREADS];
shared [4] int *shared sp;
shared [4] int cells[4 * THREADS];
shared int counter;
const shared int answer = 42;
shared long one[1];
static void bump(shared int *c) { *c += 1; }
static sintptr own(void) { return (sintptr)&cells[4 * MYTHREAD]; }
int main(void)
{
    int bad = 0;
    locks[MYTHREAD] = upc_global_lock_alloc();
    if (MYTHREAD == 0)
        sp = &cells[1];
    upc_barrier;
    upc_lock(locks[0]);
    bump(&counter);
    upc_unlock(locks[0]);
    shared [4] int *shared *pp = &sp;
    sintptr q = own();
    q[2] = MYTHREAD;
    upc_barrier;
    bad += counter != THREADS;
    bad += 10 * (answer != 42 || sizeof(counter) != sizeof(int));
    bad += 100 * ((*pp) != &cells[1] || upc_threadof(*pp) != 0);
    bad += 1000 * (cells[4 * MYTHREAD + 2] != MYTHREAD || own()[2] != MYTHREAD);
    bad += one[0] != 0 || upc_threadof(pp) != 0;
    upc_barrier;
    if (MYTHREAD == 0)
        (*pp)[1] = 77;
    upc_barrier;
    bad += 10000 * (cells[2] != 77);
    upc_lock_free(locks[MYTHREAD]);
    if (bad)
        printf("thread %d: %d bad\n", MYTHREAD, bad);
    return bad;
}
