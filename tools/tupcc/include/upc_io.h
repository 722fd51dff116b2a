/* tupcc front end: <upc_io.h>, UPC-IO, is an optional library of UPC 1.3
 * that tupc does not provide: a program that includes it is refused at its
 * #include, with what to use instead. */
#error                                                                                             \
    "tupc does not provide <upc_io.h> (UPC-IO, an optional library of UPC 1.3): each thread can use the C library's stdio, with upc_memget/upc_memput between files and shared arrays"
