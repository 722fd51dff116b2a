/* a user header: translated with the file that includes it */
static inline int check_it(void)
{
    return 0;
}
