/* upc_lock_t: MCS queue locks (fair: first come, first served). */
#ifndef TUPC_SYNC_LOCK_H
#define TUPC_SYNC_LOCK_H

void tupc_lock_fini(void); /* frees the locks a run left allocated */

#endif
