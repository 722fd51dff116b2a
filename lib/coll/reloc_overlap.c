/* TUPC_CHECKS=full for the relocalizations: "If copying takes place
 * between objects that overlap, the behavior is undefined" (UPC 1.3 7.4.2,
 * each function's description). */
#include "check/overlap.h"
#include "coll/reloc.h"

void tupc_reloc_check_overlaps(const char *func, const struct tupc_reloc_area *areas, int n)
{
    struct tupc_extent d = {areas[0].arg, areas[0].p, areas[0].len, 0, 1, areas[0].all};
    for (int i = 1; i < n; i++) {
        struct tupc_extent s = {areas[i].arg, areas[i].p, areas[i].len, 0, 1, areas[i].all};
        tupc_check_overlap(func, "UPC 1.3 7.4.2", &d, &s);
    }
}

void tupc_reloc_allocs_slow(const char *func, uint64_t key, uint32_t gen,
                            const struct tupc_reloc_arg *a, int na, size_t nbytes, size_t total)
{
    struct tupc_reloc_area ra[3];
    for (int i = 0; i < na; i++)
        ra[i] = (struct tupc_reloc_area){a[i].arg, a[i].p,
                                         tupc_reloc_area_len(&a[i], nbytes, total), a[i].all};
    tupc_reloc_check_allocs_now(func, ra, na);
    tupc_call_seen(key, gen);
}
