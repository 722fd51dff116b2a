/* Calls past MPI's int counts, every byte checked: `permute`, two blocks
 * of 1.25 GiB a process (2 x 2), not in place, each a message of its own;
 * `bcast`, a posted broadcast of 2.25 GiB (in calls of 1 GiB). Suite
 * mpi-big, by hand (about 11 GiB of memory; not in CI). */
#include "check.h"
#include "oracle.h"

#include <string.h>
#include <unistd.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

static unsigned char V(int t, size_t k)
{
    return (unsigned char)(t * 31 + (k >> 12) * 7 + k % 251);
}

static void fill(unsigned char *p, int t, size_t n)
{
    for (size_t k = 0; k < n; k++)
        p[k] = V(t, k);
}

static void expect(const unsigned char *p, int t, size_t n, const char *what)
{
    for (size_t k = 0; k < n; k++)
        if (p[k] != V(t, k)) {
            fprintf(stderr, "%s: thread %d byte %zu is %d; expected %d\n", what, MYTHREAD, k, p[k],
                    V(t, k));
            CHECK(0);
        }
}

/* Skipped (77) on a machine with less than 12 GiB free: a plain `meson
 * test` runs suite mpi-big too. */
static int enough_memory(void)
{
    const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 && (double)pages * (double)size >= 12.0 * (1 << 30);
}

int tupc_main(int argc, char **argv)
{
    CHECK(argc > 2);
    if (!enough_memory()) {
        if (MYTHREAD == 0)
            printf("mpi_big: less than 12 GiB of memory free; skipped\n");
        return 77;
    }
    const int T = THREADS, me = MYTHREAD;
    if (strcmp(argv[2], "permute") == 0) {
        const size_t nb = (size_t)5 << 28;
        tupc_sptr_t s = upc_all_alloc((size_t)T, nb), d = upc_all_alloc((size_t)T, nb);
        tupc_sptr_t p = upc_all_alloc((size_t)T, sizeof(int));
        CHECK(!tupc_isnull(s) && !tupc_isnull(d) && !tupc_isnull(p));
        fill(part(s, me, 0), me, nb);
        /* Every block to another process, and no block back to its
         * source's (at 2 x 2 one shift would be its own inverse). */
        const int L = tupc_impl_local_threads, P = T / L;
#define TO(i) (((i) / L + 1) % P * L + ((i) % L + (i) / L) % L)
        *(int *)part(p, me, 0) = TO(me);
        int from = -1;
        for (int i = 0; i < T; i++)
            if (TO(i) == me)
                from = i;
        CHECK(from >= 0);
        upc_all_permute(d, s, p, nb, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC);
        expect(part(d, me, 0), from, nb, "permute");
    } else {
        const size_t n = (size_t)9 << 28;
        const int root = T - 1;
        tupc_sptr_t s = upc_all_alloc((size_t)T, n), d = upc_all_alloc((size_t)T, n);
        CHECK(!tupc_isnull(s) && !tupc_isnull(d));
        if (me == root)
            fill(part(s, root, 0), root, n);
        upc_coll_handle_t h = tupc_team_broadcast(
            d, at(s, root, 0), n, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, UPC_TEAM_ALL);
        upc_wait(h);
        expect(part(d, me, 0), root, n, "posted broadcast");
    }
    upc_barrier();
    if (me == 0)
        printf("mpi_big: %s past 2 GiB gave the spec's answer\n", argv[2]);
    return 0;
}
