/* tupcc front end: <upc_atomic.h>, the atomic memory operations of UPC
 * 1.3's optional library, is not provided yet: refused at the #include,
 * with what to use instead. */
#error                                                                                             \
    "tupc does not provide <upc_atomic.h> (atomic memory operations, an optional library of UPC 1.3) yet: use a upc_lock_t around the update, or C11 <stdatomic.h> on the object through upc_cast"
