/* The generated C is compiled by $CC: the program must see $CC's compiler
 * macros (gcc's __GNUC__ and no __clang__ under gcc), not those of the clang
 * that reads UPC for tupcc. cc_macros_c.c, compiled by $CC itself, says
 * what they are. also: cc_macros_c.c */
#include <upc.h>
#include <stdio.h>
#include <string.h>
#include "cc_macros.h"

int cc_is_clang(void);
int cc_gnuc(void);
const char *cc_version(void);
int cc_optimized(void);

int main(void)
{
    int bad = 0;
#ifdef __clang__
    int mine_clang = 1;
#else
    int mine_clang = 0;
#endif
#if defined(__GNUC__) && __GNUC__ >= 1
    int mine_gnuc = __GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__;
#else
    int mine_gnuc = -1;
#endif
#ifdef __VERSION__
    const char *mine_version = __VERSION__;
#else
    const char *mine_version = "";
#endif
#ifdef __OPTIMIZE__
    int mine_optimized = 1;
#else
    int mine_optimized = 0;
#endif
    if (mine_clang != cc_is_clang() || HEADER_SAYS_CLANG != cc_is_clang()) {
        printf("__clang__: the program says %d, its header %d, $CC %d\n", mine_clang, HEADER_SAYS_CLANG,
               cc_is_clang());
        bad++;
    }
    if (mine_gnuc != cc_gnuc()) {
        printf("__GNUC__.__GNUC_MINOR__.__GNUC_PATCHLEVEL__: the program says %d, $CC %d\n", mine_gnuc, cc_gnuc());
        bad++;
    }
    if (strcmp(mine_version, cc_version()) != 0) {
        printf("__VERSION__: the program says \"%s\", $CC \"%s\"\n", mine_version, cc_version());
        bad++;
    }
    if (mine_optimized != cc_optimized()) {
        printf("__OPTIMIZE__: the program says %d, $CC %d\n", mine_optimized, cc_optimized());
        bad++;
    }
    /* the names in a string or a comment stay as written */
    if (strcmp("__GNUC__ __clang__", "__GN" "UC__ __cl" "ang__") != 0) {
        printf("a string literal changed: %s\n", "__GNUC__ __clang__");
        bad++;
    }
    if (MYTHREAD == 0 && !bad)
        printf("built by %s (%s)\n", cc_is_clang() ? "clang" : "gcc or another", cc_version());
    return bad;
}
