/* tupcc front end: <upc_collective_ext.h> as UPC sees it. The C header's
 * helpers for its macros and its UPC_IN_PLACE macros are left out here
 * (the generated C includes the real header, whose macros then apply);
 * tupc_is_in_place's C body reads a struct, so it is compiled under another
 * name on a struct of that shape. */
#ifndef TUPCC_FE_UPC_COLLECTIVE_EXT_H
#define TUPCC_FE_UPC_COLLECTIVE_EXT_H
#include <upc.h>
#define TUPC_IMPL_CORE_ 1
#define TUPC_IMPL_EXT_ 1
#define TUPC_BUILDING_LIBTUPC 1
struct tupcc_fe_sptr {
    char *addr;
    unsigned thread, phase;
};
#define tupc_is_in_place(x) tupcc_fe_is_in_place(struct tupcc_fe_sptr p)
#include_next <upc_collective_ext.h>
#undef tupc_is_in_place
#undef TUPC_BUILDING_LIBTUPC
#undef TUPC_IN_PLACE_SPTR
#undef upc_wait
int tupc_is_in_place(shared void *p);
#endif
