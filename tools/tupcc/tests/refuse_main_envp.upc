/* expect: main with 3 parameters */
#include <upc.h>
int main(int argc, char **argv, char **envp) /* here */
{
    return argc + (argv == envp);
}
