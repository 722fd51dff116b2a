/* rand, srand and strtok keep each UPC thread's own state: a thread is its
 * own C program instance (UPC 1.3 5.1.2), so after srand(s) every thread
 * draws the sequence a C program draws (glibc's), whatever the others do,
 * and strtok goes on with the thread's own string. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    int bad = 0;
    /* glibc's first values after srand(1) (and with no srand) */
    bad += rand() != 1804289383 || rand() != 846930886;
    srand(42);
    int first[50];
    for (int i = 0; i < 50; i++)
        first[i] = rand();
    srand(42);
    upc_barrier;
    for (int i = 0; i < 50; i++) {
        bad += rand() != first[i];
        if (i % 10 == 0)
            upc_barrier; /* the threads draw at once */
    }
    char line[64];
    snprintf(line, sizeof line, "t%d,a%d,,b%d", MYTHREAD, MYTHREAD, MYTHREAD);
    const char *want[] = {"t", "a", "b"};
    int n = 0;
    for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ",")) {
        char w[16];
        snprintf(w, sizeof w, "%s%d", n < 3 ? want[n] : "?", MYTHREAD);
        bad += strcmp(tok, w) != 0;
        n++;
        upc_barrier; /* every thread has three tokens */
    }
    bad += n != 3;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
