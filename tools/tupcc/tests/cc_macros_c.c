/* What $CC itself predefines: compiled by $CC directly, never translated. */
int cc_is_clang(void)
{
#ifdef __clang__
    return 1;
#else
    return 0;
#endif
}

int cc_gnuc(void)
{
#ifdef __GNUC__
    return __GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__;
#else
    return -1;
#endif
}

const char *cc_version(void)
{
#ifdef __VERSION__
    return __VERSION__;
#else
    return "";
#endif
}

int cc_optimized(void)
{
#ifdef __OPTIMIZE__
    return 1;
#else
    return 0;
#endif
}
