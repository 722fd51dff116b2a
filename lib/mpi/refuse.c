/* The refusals of the MPI layer: one line that says what to use instead. */
#include "mpi/layer.h"

#include "check/error.h"
#include "runtime/runtime.h"

void tupc_impl_refuse_remote(const char *func, tupc_sptr_t p)
{
    tupc_fail(func, NULL,
              "the pointer's thread %u is in another process (MPI rank %d), whose data has no "
              "address here; expected tupc_get/tupc_put or tupc_get_<type>/tupc_put_<type> "
              "(upc_memget/upc_memput) for another process's data",
              p.thread, tupc_mpi_rank_of(p.thread));
}

_Noreturn void tupc_mpi_refuse(const char *func, const char *what)
{
    tupc_fail(func, NULL,
              "%s across MPI processes is not supported yet (%d processes); expected "
              "a run of one process for it",
              what, tupc_procs_);
}
