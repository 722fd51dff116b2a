/* The relocalizations the MPI tests run (mpi_coll, mpi_team), by name. */
#ifndef TUPC_TESTS_MPI_VERBS_H
#define TUPC_TESTS_MPI_VERBS_H

enum verb {
    BROADCAST,
    SCATTER,
    GATHER,
    GATHER_ALL,
    EXCHANGE,
    EXCHANGE_IN_PLACE,
    PERMUTE,
    PERMUTE_IN_PLACE,
    NVERBS
};
static const char *const names[] = {"broadcast",  "scatter",         "gather",
                                    "gather_all", "exchange",        "exchange in place",
                                    "permute",    "permute in place"};

#endif
