/* The completion calls of Extended Collectives 0.3 section 5.4: upc_wait
 * (as tupc_wait_handle, which the upc_wait macro calls for a handle),
 * upc_test, their array forms and upc_get_status. Each completes only the
 * caller's own handles; a waiter first runs the unclaimed chunks of its
 * request, then any queued chunk, and sleeps on the count of completed
 * requests only when nothing is left to run (coll/async.h). */
#include "check/error.h"
#include "coll/async.h"

#include <upc_collective_ext.h>

#include <stdint.h>
#include <stdio.h>

#define SEC "Extended Collectives 0.3 5.4"

/* Whether the parts that r's OUT sync waits for are done (acquire: their
 * copies are visible to the caller afterwards). */
static int ready(const struct tupc_coll_request *r)
{
    uint32_t want = r->index + 1;
    if (!tupc_reached(atomic_load_explicit(&r->done, memory_order_acquire), want))
        return 0;
    /* Acquire: the dst blocks that the mark's setter wrote. */
    if (r->also &&
        !tupc_reached(atomic_load_explicit(&r->also->value, memory_order_acquire), r->also_at))
        return 0;
    if (r->out == TUPC_NOSYNC)
        return 1;
    for (int j = 0; j < r->team->n; j++)
        if (!tupc_async_peer_done(r, j))
            return 0;
    return 1;
}

/* The request of handle h, which must be an outstanding one of this thread:
 * found in the thread's table of handles (coll/handle.h), never read
 * through h itself. */
static struct tupc_coll_request *request_of(const char *func, upc_coll_handle_t h, int i)
{
    tupc_require_thread(func);
    struct tupc_coll_request *r = tupc_handle_find(h);
    if (!r) {
        char arg[32] = "handle";
        if (i >= 0)
            snprintf(arg, sizeof arg, "handles[%d]", i);
        tupc_fail(func, SEC,
                  "%s (%#jx) is no outstanding asynchronous operation of this thread: it was "
                  "completed already, posted by another thread or in an earlier run, or no "
                  "posting call returned it; expected a handle that a posting call of this "
                  "thread returned and no call completed yet, or UPC_HANDLE_COMPLETE",
                  arg, (uintmax_t)(uintptr_t)h);
    }
    return r;
}

static void complete(struct tupc_coll_request *r)
{
    tupc_async_unqueue_(r);
    tupc_handle_drop(r->handle);
    r->active = 0;
}

struct stuck {
    const upc_coll_handle_t *h;
    int n;
    const char *func;
};

/* Before a sleep: a member that has not posted its part, and that returned
 * or waits in a barrier this thread has not reached, never will. A part
 * posted but not done is not stuck: anyone may run its chunks. */
static void check_stuck(const void *arg, tupc_word *w, uint32_t target)
{
    const struct stuck *s = arg;
    for (int i = 0; i < s->n; i++) {
        if (s->h[i] == UPC_HANDLE_COMPLETE)
            continue;
        const struct tupc_coll_request *r = tupc_handle_find(s->h[i]);
        if (r->out == TUPC_NOSYNC)
            continue;
        for (int j = 0; j < r->team->n; j++)
            if (!tupc_async_peer_posted(r, j))
                tupc_wait_check_peer(w, target, tupc_team_thread_of(r->team, j), s->func);
    }
}

/* Runs what can be run, then sleeps until a request is posted or completes. */
static void progress_or_sleep(const upc_coll_handle_t *h, int n, const char *func, uint32_t seen)
{
    if (tupc_async_help_any_())
        return;
    struct stuck s = {h, n, func};
    tupc_wait_checked(tupc_async_done_word_(), seen + 1, func, check_stuck, &s);
}

static uint32_t done_count(void)
{
    return atomic_load_explicit(&tupc_async_done_word_()->value, memory_order_acquire);
}

void tupc_wait_handle(upc_coll_handle_t handle)
{
    if (handle == UPC_HANDLE_COMPLETE)
        return;
    struct tupc_coll_request *r = request_of("upc_wait", handle, -1);
    tupc_async_help_(r, UINT32_MAX);
    for (;;) {
        uint32_t seen = done_count();
        if (ready(r))
            break;
        progress_or_sleep(&handle, 1, "upc_wait", seen);
    }
    complete(r);
}

/* What a test does when its handles are not complete: runs one queued
 * chunk, maybe another member's part that they wait for (with no CPU free
 * for the progress thread, a loop of tests by every member must move the
 * data itself). */
static void nudge(void)
{
    (void)tupc_async_help_any_();
}

int upc_test(upc_coll_handle_t handle)
{
    if (handle == UPC_HANDLE_COMPLETE)
        return 1;
    struct tupc_coll_request *r = request_of("upc_test", handle, -1);
    tupc_async_help_(r, 1); /* a test returns at once: one chunk at most */
    if (!ready(r)) {
        nudge();
        return -1;
    }
    complete(r);
    return 1;
}

int upc_get_status(upc_coll_handle_t handle)
{
    if (handle == UPC_HANDLE_COMPLETE)
        return 1;
    struct tupc_coll_request *r = request_of("upc_get_status", handle, -1);
    if (ready(r))
        return 1;
    /* Progress is no completion: the data may move, the handle stays. */
    tupc_async_help_(r, 1);
    nudge();
    return -1;
}

static void check_array(const char *func, int count, upc_coll_handle_t *handles)
{
    tupc_require_thread(func);
    if (count < 0)
        tupc_fail(func, SEC, "count is %d; expected 0 or more", count);
    if (count > 0 && !handles)
        tupc_fail(func, SEC, "handles is NULL with count %d; expected an array of %d handles",
                  count, count);
    uint32_t mark = tupc_handle_new_mark();
    for (int i = 0; i < count; i++) {
        if (handles[i] == UPC_HANDLE_COMPLETE)
            continue;
        (void)request_of(func, handles[i], i);
        int j = tupc_handle_note(handles[i], mark, i);
        if (j >= 0)
            tupc_fail(func, SEC,
                      "handles[%d] is handles[%d] again; expected each outstanding handle once "
                      "in the array (completing it sets one of them to UPC_HANDLE_COMPLETE and "
                      "leaves the other naming a completed operation)",
                      i, j);
    }
}

/* Runs up to `most` unclaimed chunks of each pending handle: all of them
 * in a wait, one in a test, which returns at once (5.4.4). */
static void help_all(int count, upc_coll_handle_t *handles, uint32_t most)
{
    for (int i = 0; i < count; i++)
        if (handles[i] != UPC_HANDLE_COMPLETE)
            tupc_async_help_(tupc_handle_find(handles[i]), most);
}

/* Index of a pending handle that is ready, -1 if none; *pending counts the
 * pending ones. */
static int find_ready(int count, upc_coll_handle_t *handles, int *pending)
{
    int p = 0, found = -1;
    for (int i = 0; i < count; i++) {
        if (handles[i] == UPC_HANDLE_COMPLETE)
            continue;
        p++;
        if (found < 0 && ready(tupc_handle_find(handles[i])))
            found = i;
    }
    *pending = p;
    return found;
}

/* Completes every pending handle that is ready; returns how many, and in
 * *left how many stay pending. */
static int complete_ready(int count, upc_coll_handle_t *handles, int *left)
{
    int n = 0, l = 0;
    for (int i = 0; i < count; i++) {
        if (handles[i] == UPC_HANDLE_COMPLETE)
            continue;
        struct tupc_coll_request *r = tupc_handle_find(handles[i]);
        if (!ready(r)) {
            l++;
            continue;
        }
        complete(r);
        handles[i] = UPC_HANDLE_COMPLETE;
        n++;
    }
    *left = l;
    return n;
}

int upc_testany(int count, upc_coll_handle_t *handles)
{
    check_array("upc_testany", count, handles);
    help_all(count, handles, 1);
    int pending, i = find_ready(count, handles, &pending);
    if (i < 0) {
        nudge();
        return -1;
    }
    complete(tupc_handle_find(handles[i]));
    handles[i] = UPC_HANDLE_COMPLETE;
    return i;
}

int upc_waitany(int count, upc_coll_handle_t *handles)
{
    check_array("upc_waitany", count, handles);
    help_all(count, handles, UINT32_MAX);
    for (;;) {
        uint32_t seen = done_count();
        int pending, i = find_ready(count, handles, &pending);
        if (i >= 0) {
            complete(tupc_handle_find(handles[i]));
            handles[i] = UPC_HANDLE_COMPLETE;
            return i;
        }
        if (!pending) /* nothing to wait for: it would never return */
            return -1;
        progress_or_sleep(handles, count, "upc_waitany", seen);
    }
}

int upc_testsome(int count, upc_coll_handle_t *handles)
{
    check_array("upc_testsome", count, handles);
    help_all(count, handles, 1);
    int left, n = complete_ready(count, handles, &left);
    if (!n)
        nudge();
    return n;
}

int upc_waitsome(int count, upc_coll_handle_t *handles)
{
    check_array("upc_waitsome", count, handles);
    help_all(count, handles, UINT32_MAX);
    for (;;) {
        uint32_t seen = done_count();
        int left, n = complete_ready(count, handles, &left);
        if (n > 0 || !left)
            return n;
        progress_or_sleep(handles, count, "upc_waitsome", seen);
    }
}

int upc_testall(int count, upc_coll_handle_t *handles)
{
    check_array("upc_testall", count, handles);
    help_all(count, handles, 1);
    for (int i = 0; i < count; i++)
        if (handles[i] != UPC_HANDLE_COMPLETE && !ready(tupc_handle_find(handles[i]))) {
            nudge();
            return -1; /* no handle is modified */
        }
    int left;
    (void)complete_ready(count, handles, &left);
    return 1;
}

void upc_waitall(int count, upc_coll_handle_t *handles)
{
    check_array("upc_waitall", count, handles);
    help_all(count, handles, UINT32_MAX);
    for (;;) {
        uint32_t seen = done_count();
        int left;
        (void)complete_ready(count, handles, &left);
        if (!left)
            return;
        progress_or_sleep(handles, count, "upc_waitall", seen);
    }
}
