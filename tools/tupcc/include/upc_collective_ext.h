/* tupcc front end: <upc_collective_ext.h> as UPC sees it. The C header's
 * inline helpers and its UPC_IN_PLACE macros are left out here; the
 * generated C includes the real header, whose macros then apply. */
#ifndef TUPCC_FE_UPC_COLLECTIVE_EXT_H
#define TUPCC_FE_UPC_COLLECTIVE_EXT_H
#include <upc.h>
#define TUPC_IMPL_CORE_ 1
#define TUPC_IMPL_EXT_ 1
#define TUPC_BUILDING_LIBTUPC 1
#include_next <upc_collective_ext.h>
#undef TUPC_BUILDING_LIBTUPC
#undef upc_wait
#endif
