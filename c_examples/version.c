/* Prints the library version and checks the status strings: the smallest program against mbs.h. */
#include <stdio.h>
#include <string.h>
#include "mbs.h"

int main(void) {
    printf("mbs version %s\n", mbs_version());
    if (strcmp(mbs_status_str(MBS_OK), "ok") != 0) {
        return 1;
    }
    printf("status %u: %s\n", (unsigned)MBS_ERR_NULL_POINTER, mbs_status_str(MBS_ERR_NULL_POINTER));
    return 0;
}
