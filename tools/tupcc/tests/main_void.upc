/* main in the other spellings programs use: void main, and argv as
 * const char ** (as char *argv[] and char ** do). */
#include <upc.h>
#include <stdio.h>
void main(int argc, const char **argv)
{
    if (argc < 1 || argv[0] == NULL)
        printf("no argv\n");
}
