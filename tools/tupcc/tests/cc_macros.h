/* A user header of cc_macros.upc: its conditionals see $CC's macros too. */
#if defined(__clang__)
#define HEADER_SAYS_CLANG 1
#else
#define HEADER_SAYS_CLANG 0
#endif
